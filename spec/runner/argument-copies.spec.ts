import 'reflect-metadata';
import { canonicalArgumentsSha256 } from '../../lib/durable';
import {
  Contract,
  Field,
  JsonObject,
  LlmAgentEvent,
  LlmAgentRunner,
  MemoryRunStore,
  ReflectedToolProvider,
  ScriptedModelClient,
  standardFailure,
  Tool,
  ToolInvocation,
} from '../../lib';
import { FunctionProvider } from './support';

describe('each attempt gets its own copy of the validated arguments', () => {
  it('a tool that mutates its arguments in attempt 1 changes nothing attempt 2, approval or the result see', async () => {
    const seen: JsonObject[] = [];
    const approved: JsonObject[] = [];
    const provider = new FunctionProvider().add(
      'tag',
      (invocation) => {
        seen.push(structuredClone(invocation.arguments));
        const args = invocation.arguments as { name: string; tags: string[] };
        if (invocation.attempt === 1) {
          args.tags.push('mutated');
          args.name = 'changed';
          return standardFailure('unavailable', 'try again');
        }
        return 'tagged';
      },
      {
        idempotency: 'idempotent',
        approval: 'always',
        retry: { maxAttempts: 2, initialDelayMs: 1, maxDelayMs: 1, jitter: 0 },
      },
      { name: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } },
    );
    const original = { name: 'a', tags: ['x'] };
    const model = new ScriptedModelClient([
      { toolCalls: [{ id: 'c1', name: 'tag', arguments: JSON.stringify(original) }] },
      { text: 'done' },
    ]);
    const result = await new LlmAgentRunner(model, provider).complete('go', {
      approvalHandler: (request) => (approved.push(request.arguments), { approved: true }),
    });
    expect(result.toolCalls[0]).toMatchObject({ outcome: { ok: true, text: 'tagged' }, attempts: 2 });
    expect(seen).toEqual([original, original]);
    expect(approved).toEqual([original]);
    expect(result.toolCalls[0].arguments).toEqual(original);
    expect(provider.calls[0].arguments).not.toBe(provider.calls[1].arguments);
  });
});

const RETRY_ONCE = {
  idempotency: 'idempotent',
  approval: 'always',
  retry: { maxAttempts: 2, initialDelayMs: 1, maxDelayMs: 1, jitter: 0 },
} as const;

/** What each attempt of the reflected tools below saw in its fields before it changed them. */
const seenByAttempt: string[] = [];

@Tool({ name: 'rename_city', description: 'Renames a city, badly.' })
@Contract(RETRY_ONCE)
class RenameCity {
  @Field({ description: 'City name.' }) city!: string;
  @Field({ description: 'Unit.', enum: ['celsius', 'fahrenheit'], default: 'celsius' }) unit?: string;
  invoke(): unknown {
    seenByAttempt.push(`${this.city}/${this.unit}`);
    this.city = 'changed';
    this.unit = 'fahrenheit';
    return seenByAttempt.length === 1 ? standardFailure('unavailable', 'try again') : `renamed ${this.city}`;
  }
}

@Tool({ name: 'tag_city', description: 'Tags a city, badly.' })
@Contract(RETRY_ONCE)
class TagCity {
  @Field({ description: 'City name.' }) city!: string;
  @Field({ description: 'Tags.', type: () => [String] }) tags!: string[];
  async invoke(): Promise<unknown> {
    seenByAttempt.push(`${this.city}/${this.tags.join(',')}`);
    this.tags.push('mutated');
    this.tags[0] = 'changed';
    this.city = 'changed';
    await Promise.resolve();
    return seenByAttempt.length === 1 ? standardFailure('unavailable', 'try again') : { tags: this.tags };
  }
}

/** A provider whose rich form changes the invocation's arguments before the class sees them. */
class MutatingProvider extends ReflectedToolProvider {
  override invokeTool(invocation: ToolInvocation) {
    const args = invocation.arguments as { city: string; tags?: string[] };
    const outcome = super.invokeTool(invocation);
    args.city = 'mutated by the provider';
    args.tags?.push('mutated by the provider');
    return outcome;
  }
}

describe('a reflected tool that changes its fields or arguments changes nothing recorded', () => {
  async function run(provider: ReflectedToolProvider, name: string, original: JsonObject) {
    seenByAttempt.length = 0;
    const approved: JsonObject[] = [];
    const started: JsonObject[] = [];
    const store = new MemoryRunStore();
    const model = new ScriptedModelClient([
      { toolCalls: [{ id: 'c1', name, arguments: JSON.stringify(original) }] },
      { text: 'done' },
    ]);
    const result = await new LlmAgentRunner(model, provider).complete('go', {
      store,
      runId: `copies-${name}`,
      approvalHandler: (request) => (approved.push(structuredClone(request.arguments)), { approved: true }),
      onEvent: (event: LlmAgentEvent) => {
        if (event.type === 'tool_call_started') started.push(event.arguments);
      },
    });
    const record = (await store.loadRun(`copies-${name}`))!;
    return { result, approved, started, stored: record.toolCalls[0] };
  }

  it.each([
    [
      'a flat class (fields of scalars)',
      'rename_city',
      { city: 'Oslo' },
      { city: 'Oslo', unit: 'celsius' },
      ['Oslo/celsius', 'Oslo/celsius'],
    ],
    [
      'a class with an array field',
      'tag_city',
      { city: 'Oslo', tags: ['x'] },
      { city: 'Oslo', tags: ['x'] },
      ['Oslo/x', 'Oslo/x'],
    ],
  ])(
    '%s: every attempt sees the validated arguments; the result, approval, events and store keep them',
    async (_, name, sent, validated, seen) => {
      for (const provider of [
        new ReflectedToolProvider([RenameCity, TagCity]),
        new MutatingProvider([RenameCity, TagCity]),
      ]) {
        const { result, approved, started, stored } = await run(provider, name, sent);
        expect(result.toolCalls[0]).toMatchObject({ outcome: { ok: true }, attempts: 2 });
        expect(seenByAttempt).toEqual(seen);
        expect(result.toolCalls[0].arguments).toEqual(validated);
        expect(approved).toEqual([validated]);
        expect(started).toEqual([validated]);
        expect(stored.arguments).toEqual(validated);
        expect(stored.argumentsSha256).toBe(canonicalArgumentsSha256(validated));
      }
    },
  );
});
