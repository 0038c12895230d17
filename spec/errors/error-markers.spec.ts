import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as wuwe from '../../lib';
import {
  Field,
  LlmAgentRunner,
  MemoryRunStore,
  ReflectedToolProvider,
  RunStore,
  ScriptedModelClient,
  Tool,
  WuweError,
} from '../../lib';
import { invokeReflectedTool } from '../../lib/tools';

/** The source module of each package entry, read from package.json's `exports`. */
const ENTRY_MODULES: readonly string[] = Object.values(
  (JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')) as { exports: Record<string, unknown> })
    .exports,
)
  .filter((target): target is { types: string } => typeof target === 'object' && target !== null)
  .map((target) => join(__dirname, '../..', target.types.replace('./dist/', 'lib/').replace(/\.d\.ts$/, '')));

/** Every name of every package entry (no name is exported by two entries). */
function namesOfEveryEntry(load: (module: string) => object): Record<string, unknown> {
  return Object.assign({}, ...ENTRY_MODULES.map(load)) as Record<string, unknown>;
}

const ours = namesOfEveryEntry((module) => jest.requireActual<object>(module));

/** A second copy of the package, as when an application and a plugin each install their own wuwe. */
function loadOtherCopy(): typeof wuwe & Record<string, unknown> {
  let copy: (typeof wuwe & Record<string, unknown>) | undefined;
  jest.isolateModules(() => {
    copy = namesOfEveryEntry((module) => jest.requireActual<object>(module)) as typeof wuwe & Record<string, unknown>;
  });
  if (copy === undefined || copy.RunStoreError === wuwe.RunStoreError)
    throw new Error('expected a second copy of the package');
  return copy;
}

const other = loadOtherCopy();

/** Every error class the package entries export, by name. */
const errorClassNames = Object.keys(ours).filter((name) => {
  const value = ours[name];
  return typeof value === 'function' && value.prototype instanceof WuweError;
});

describe('error classes across package copies', () => {
  it('finds the error classes of every entry', () => {
    expect(errorClassNames).toEqual(
      expect.arrayContaining(['RunStoreError', 'ToolFailureError', 'MissingDependencyError', 'ModelApiError']),
    );
    expect(errorClassNames.length).toBeGreaterThanOrEqual(18);
  });

  it.each(errorClassNames)(
    '%s has its own isInstance that recognises an instance from another copy, and only its own class',
    (name) => {
      const mine = ours[name] as typeof WuweError;
      const theirs = (other as unknown as Record<string, typeof WuweError>)[name];
      expect(Object.prototype.hasOwnProperty.call(mine, 'isInstance')).toBe(true);
      // What an instance of the other copy's class carries: its prototype and the shared Symbol.for markers.
      const foreign = Object.create(theirs.prototype) as object;
      Object.defineProperty(foreign, Symbol.for('wuwe.error'), { value: true });
      Object.defineProperty(foreign, Symbol.for(`wuwe.error.${name}`), { value: true });
      expect(foreign instanceof mine).toBe(false);
      expect(mine.isInstance(foreign)).toBe(true);
      expect(WuweError.isInstance(foreign)).toBe(true);
      const otherNames = errorClassNames.filter((otherName) => otherName !== name);
      for (const otherName of otherNames) {
        expect((ours[otherName] as typeof WuweError).isInstance(foreign)).toBe(false);
      }
      expect(mine.isInstance(new Error('plain'))).toBe(false);
      expect(mine.isInstance(null)).toBe(false);
      expect(
        mine.isInstance(
          new Proxy(
            {},
            {
              get: () => {
                throw new Error('hostile');
              },
            },
          ),
        ),
      ).toBe(false);
    },
  );
});

describe('seams where another copy hands an error over', () => {
  @Tool({ description: 'Fails through the other copy.' })
  class FailsElsewhere {
    @Field({ description: 'Why.' })
    reason!: string;

    invoke(): never {
      throw new other.ToolFailureError({ code: 'not_found', message: `missing: ${this.reason}` });
    }
  }

  it('a ToolFailureError from another copy keeps its outcome', async () => {
    const outcome = await invokeReflectedTool(FailsElsewhere, { reason: 'x' });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'not_found', message: 'missing: x' } });
  });

  it('an idempotency conflict thrown by a store built on another copy refuses the call instead of crashing the run', async () => {
    const store = new MemoryRunStore();
    const conflicting = new Proxy(store, {
      get(target, property) {
        if (property === 'recordCallStarted') {
          return async () => {
            throw new other.RunStoreError('idempotency_conflict', 'the key was used with other arguments');
          };
        }
        const value: unknown = Reflect.get(target, property);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    }) as RunStore;
    @Tool({ description: 'Echo.' })
    class Echo {
      @Field({ description: 'Text.' })
      text!: string;
      invoke(): string {
        return this.text;
      }
    }
    const model = new ScriptedModelClient([
      { toolCalls: [{ name: 'Echo', arguments: '{"text":"hi"}' }] },
      { text: 'done' },
    ]);
    const result = await new LlmAgentRunner(model, new ReflectedToolProvider([Echo])).complete('go', {
      store: conflicting,
    });
    expect(result.toolCalls[0].outcome).toMatchObject({ ok: false, error: { code: 'conflict' } });
  });
});
