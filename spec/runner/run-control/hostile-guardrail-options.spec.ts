import { join } from 'node:path';
import { LlmAgentRunner, ScriptedModelClient } from '../../../lib';
import type { LlmAgentRunOptions } from '../../../lib';
import { SqliteRunStore } from '../../../lib/durable/sqlite';
import { guardrail } from '../../../lib/runner';
import { makeTempDir } from '../../durable/temp-dir';
import { FunctionProvider } from '../support';

const temp = makeTempDir('hostile-guardrails');
afterAll(() => temp.cleanup());

/** A verdict whose every field read throws, and a proxy whose every trap throws. */
const throwingVerdict = (): unknown => ({
  get kind(): string {
    throw new Error('verdict getter');
  },
});
const hostileProxy = (): unknown =>
  new Proxy(
    {},
    {
      get() {
        throw new Error('proxy trap');
      },
      has() {
        throw new Error('proxy trap');
      },
    },
  );

const send = (): FunctionProvider =>
  new FunctionProvider().add(
    'send',
    () => 'sent to bob',
    { sideEffect: 'write', idempotency: 'non_idempotent' },
    {
      to: { type: 'string' },
    },
  );
const sendCall = { id: 'c1', name: 'send', arguments: { to: 'bob' } };

/** Runs `options` on a model asking for `send` twice, then answering; what settled, and how often `send` ran. */
async function run(options: LlmAgentRunOptions, provider = send()) {
  const model = new ScriptedModelClient([
    { toolCalls: [sendCall] },
    { toolCalls: [{ ...sendCall, id: 'c2' }] },
    { toolCalls: [{ ...sendCall, id: 'c3' }] },
    { text: 'done' },
  ]);
  const settled = await new LlmAgentRunner(model, provider).complete('Go', options).then(
    (result) => ({ stopReason: result.stopReason }),
    (error: unknown) => ({ error: error as { name: string; code: string } }),
  );
  return { settled, ran: provider.calls.length };
}

/** Collects the unhandled rejections while `work` runs and for a while after. */
async function unhandledDuring(work: () => Promise<unknown>): Promise<unknown[]> {
  const seen: unknown[] = [];
  const listener = (reason: unknown): void => {
    seen.push(reason);
  };
  process.on('unhandledRejection', listener);
  try {
    await work();
    await new Promise((resolve) => setTimeout(resolve, 50));
  } finally {
    process.off('unhandledRejection', listener);
  }
  return seen;
}

describe('guardrail answers whose fields cannot be read fail closed', () => {
  it('a parallel input guardrail answering a throwing getter or a proxy trips the run, which settles, with no unhandled rejection', async () => {
    for (const answer of [throwingVerdict, hostileProxy, () => guardrail.tripwire('at once')]) {
      let outcome: Awaited<ReturnType<typeof run>> | undefined;
      const unhandled = await unhandledDuring(async () => {
        outcome = await run({ inputGuardrails: [{ runInParallel: true, check: () => answer() as never }] });
      });
      expect(outcome).toEqual({ settled: { stopReason: 'guardrail_tripped' }, ran: 0 });
      expect(unhandled).toEqual([]);
    }
  });

  it('a sequential input, a before and an output guardrail with such an answer trip the run instead of throwing', async () => {
    for (const answer of [throwingVerdict, hostileProxy]) {
      const check = (): never => answer() as never;
      expect(await run({ inputGuardrails: [check] })).toEqual({ settled: { stopReason: 'guardrail_tripped' }, ran: 0 });
      expect(await run({ toolGuardrails: { send: { before: check } } })).toEqual({
        settled: { stopReason: 'guardrail_tripped' },
        ran: 0,
      });
      const output = await run({ outputGuardrails: [check] });
      expect(output.settled).toEqual({ stopReason: 'guardrail_tripped' });
    }
  });

  it("an after guardrail with such an answer trips the run and the executed call's outcome stays admitted (SQLite)", async () => {
    const store = new SqliteRunStore(join(temp.path, 'after.db'));
    const provider = send();
    const { settled, ran } = await run(
      { store, runId: 'after', toolGuardrails: { send: { after: () => throwingVerdict() as never } } },
      provider,
    );
    expect({ settled, ran }).toEqual({ settled: { stopReason: 'guardrail_tripped' }, ran: 1 });
    const record = await store.loadRun('after');
    expect(record?.toolCalls).toEqual([
      expect.objectContaining({ callId: 'c1', status: 'admitted', outcome: { ok: true, text: 'sent to bob' } }),
    ]);
    await store.close();
  });
});

describe('guardrail and budget options are read once, when the run starts', () => {
  it('a toolGuardrails key that is hidden, a symbol or inherited is refused, not skipped by the check', async () => {
    const hidden = Object.defineProperty({}, 'send', { value: { before: () => guardrail.tripwire('no') } });
    const inherited = Object.create({ send: { before: () => guardrail.tripwire('no') } }) as object;
    const symbol = { [Symbol('send')]: { before: () => guardrail.tripwire('no') } };
    for (const toolGuardrails of [hidden, inherited, symbol]) {
      const { settled, ran } = await run({ toolGuardrails: toolGuardrails });
      expect(settled).toEqual({ error: expect.objectContaining({ code: 'invalid_run_options' }) });
      expect(ran).toBe(0);
    }
  });

  it('a before guardrail given by a getter that answers otherwise after the check is still the one asked', async () => {
    let reads = 0;
    const tripwire = (): ReturnType<typeof guardrail.tripwire> => guardrail.tripwire('no sends');
    const entry = {
      get before() {
        reads++;
        return reads === 1 ? tripwire : undefined;
      },
    };
    expect(await run({ toolGuardrails: { send: entry } })).toEqual({
      settled: { stopReason: 'guardrail_tripped' },
      ran: 0,
    });
    expect(reads).toBe(1);
  });

  it('a guardrail pushed into outputGuardrails during the run is not asked, and nothing throws', async () => {
    const outputGuardrails: unknown[] = [() => guardrail.allow()];
    const asked: string[] = [];
    const { settled } = await run({
      outputGuardrails: outputGuardrails as never,
      onEvent: (event) => {
        if (event.type === 'model_requested') outputGuardrails.push({ name: 'late', check: () => asked.push('late') });
      },
    });
    expect(settled).toEqual({ stopReason: 'end_turn' });
    expect(asked).toEqual([]);
  });

  it('a throwing getter in guardrail or budget options is invalid_run_options before any request', async () => {
    const throwing = {
      get check(): never {
        throw new Error('getter');
      },
    };
    const budget = {
      get maxToolCalls(): number {
        throw new Error('getter');
      },
    };
    for (const options of [{ inputGuardrails: [throwing] }, { budget }] as LlmAgentRunOptions[]) {
      const { settled, ran } = await run(options);
      expect(settled).toEqual({ error: expect.objectContaining({ code: 'invalid_run_options' }) });
      expect(ran).toBe(0);
    }
  });

  it('a budget limit changed after the check (a getter, a write from onEvent) still limits the run', async () => {
    let reads = 0;
    const getter = {
      get maxToolCalls(): number {
        reads++;
        return reads === 1 ? 1 : Number.NaN;
      },
    };
    expect(await run({ budget: getter })).toEqual({ settled: { stopReason: 'budget_exhausted' }, ran: 1 });
    const mutable: { maxToolCalls: unknown } = { maxToolCalls: 1 };
    const mutated = await run({
      budget: mutable as never,
      onEvent: () => {
        mutable.maxToolCalls = 'unlimited';
      },
    });
    expect(mutated).toEqual({ settled: { stopReason: 'budget_exhausted' }, ran: 1 });
  });
});

describe('a prepareStep answer that cannot be read', () => {
  it('fails the run as run_hook_failed before any request, whatever throws (a getter, a proxy)', async () => {
    const throwingSystem = (): unknown => ({
      get system(): string {
        throw new Error('system getter');
      },
    });
    for (const answer of [throwingSystem, hostileProxy]) {
      const model = new ScriptedModelClient([{ text: 'never' }]);
      const thrown = await new LlmAgentRunner(model, send())
        .complete('Go', { prepareStep: () => answer() as never })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(thrown).toMatchObject({ name: 'LlmAgentError', code: 'run_hook_failed' });
      expect(model.requests).toHaveLength(0);
    }
  });
});

describe('stopWhen is read once', () => {
  it('conditions changed after the check (a non-function pushed, the checked one removed) change nothing', async () => {
    const stopWhen: unknown[] = [() => true];
    const { settled, ran } = await run({
      stopWhen: stopWhen as never,
      onEvent: (event) => {
        if (event.type === 'tool_call_started') stopWhen.splice(0, 1, 'not a function');
      },
    });
    expect(settled).toEqual({ stopReason: 'stop_condition' });
    expect(ran).toBe(1);
  });
});
