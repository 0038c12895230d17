import {
  LlmAgentRunner,
  LlmAgentStreamEvent,
  MemoryRunStore,
  ScriptedModelClient,
  StructuredOutputError,
} from '../../lib';
import { SqliteRunStore } from '../../lib/durable/sqlite';
import { makeTempDir } from '../durable/temp-dir';
import { FunctionProvider } from './support';
import { Verdict, VerdictSchema, weatherProvider } from './verdict-output';

const temp = makeTempDir('native-output');
afterAll(() => temp.cleanup());

const native = { supportsResponseFormat: true } as const;

describe('complete(input, { output }) on a model with native structured output', () => {
  it('asks for the schema as the response format, keeps the tools, and takes the final text as the typed answer', async () => {
    const model = new ScriptedModelClient(
      [
        { toolCalls: [{ id: 'c1', name: 'weather', arguments: { city: 'Paris' } }] },
        { text: '{"city":"Paris","degrees":22}' },
      ],
      native,
    );
    const provider = weatherProvider();
    const result = await new LlmAgentRunner(model, provider).complete('Weather in Paris?', { output: Verdict });
    expect(result.stopReason).toBe('end_turn');
    expect(result.output).toBeInstanceOf(Verdict);
    expect(result.output!.summary()).toBe('Paris: 22');
    expect(provider.calls).toHaveLength(1);
    for (const request of model.requests) {
      expect(request.tools.map((tool) => tool.name)).toEqual(['weather']);
      expect(request.responseFormat).toMatchObject({
        type: 'json_schema',
        name: 'final_answer',
        schema: { type: 'object', required: ['city', 'degrees'] },
      });
      expect(request.responseFormat).not.toHaveProperty('description');
    }
    expect(result.toolCalls.map((call) => call.toolName)).toEqual(['weather']);
  });

  it('sends a bad answer back as a user message naming its issues, then takes the repaired one (Standard Schema, defaults applied)', async () => {
    const model = new ScriptedModelClient(
      [
        { text: 'It is 4 degrees in Oslo.' },
        { text: '{"city":"Oslo","degrees":400}' },
        { text: '{"city":"Oslo","degrees":4}' },
      ],
      native,
    );
    const result = await new LlmAgentRunner(model, weatherProvider()).complete('Weather?', { output: VerdictSchema });
    const output: { city: string; degrees: number; goOut: boolean } | undefined = result.output;
    expect(output).toEqual({ city: 'Oslo', degrees: 4, goOut: true });
    const first = model.requests[1].messages.at(-1);
    expect(first).toMatchObject({ role: 'user', content: expect.stringContaining('not valid JSON') });
    const second = model.requests[2].messages.at(-1);
    expect(second).toMatchObject({ role: 'user', content: expect.stringContaining('degrees') });
    expect(second!.content).toContain("'final_answer' schema");
  });

  it('fails with StructuredOutputError once the repairs are used up, the last answer attached', async () => {
    const model = new ScriptedModelClient(
      [{ text: '{"city":"Oslo"}' }, { text: '{"city":"Oslo"}' }, { text: '{"city":"Oslo"}' }, { text: 'never' }],
      native,
    );
    const error = await new LlmAgentRunner(model, weatherProvider())
      .complete('Weather?', { output: Verdict })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StructuredOutputError);
    expect(error).toMatchObject({
      code: 'output_invalid',
      lastAnswer: '{"city":"Oslo"}',
      issues: expect.stringContaining('degrees'),
    });
    expect(model.requests).toHaveLength(3);
  });

  it('counts a refusal, an answer cut at the token limit and an empty answer as bad answers', async () => {
    const model = new ScriptedModelClient(
      [
        { text: 'I cannot help with that.', stopReason: 'refusal' },
        { text: '{"city":"Ro', stopReason: 'max_tokens' },
        { text: '' },
        { text: '{"city":"Rome","degrees":30}' },
      ],
      native,
    );
    const result = await new LlmAgentRunner(model, weatherProvider()).complete('Weather?', {
      output: Verdict,
      outputPolicy: { maxRepairs: 3 },
    });
    expect(result.output).toMatchObject({ city: 'Rome', degrees: 30 });
    expect(model.requests.slice(1).map((request) => request.messages.at(-1)!.content)).toEqual([
      expect.stringContaining('refused'),
      expect.stringContaining('token limit'),
      expect.stringContaining('empty'),
    ]);

    const silent = new ScriptedModelClient([{ text: '' }, { text: ' ' }], native);
    const error = await new LlmAgentRunner(silent, weatherProvider())
      .complete('Weather?', { output: Verdict, outputPolicy: { maxRepairs: 1 } })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'output_missing' });
  });

  it('reads a null sent for an optional field as absent (OpenAI strict mode), but refuses one for a required field', async () => {
    const model = new ScriptedModelClient(
      [{ text: '{"city":null,"degrees":5,"goOut":null}' }, { text: '{"city":"Bern","degrees":5,"goOut":null}' }],
      native,
    );
    const result = await new LlmAgentRunner(model, weatherProvider()).complete('Weather?', { output: Verdict });
    expect(result.output).toBeInstanceOf(Verdict);
    expect(result.output).toMatchObject({ city: 'Bern', degrees: 5 });
    expect(result.output).not.toHaveProperty('goOut', null);
    expect(model.requests[1].messages.at(-1)!.content).toContain('city');
  });

  it("mode 'tool' gives the final-answer tool even to a model with native output; 'native' on a model without it is refused", async () => {
    const model = new ScriptedModelClient(
      [{ toolCalls: [{ id: 'f', name: 'final_answer', arguments: { city: 'Lima', degrees: 19 } }] }],
      native,
    );
    const result = await new LlmAgentRunner(model, weatherProvider()).complete('Weather?', {
      output: Verdict,
      outputPolicy: { mode: 'tool' },
    });
    expect(result.output).toMatchObject({ city: 'Lima', degrees: 19 });
    expect(model.requests[0].responseFormat).toBeUndefined();
    expect(model.requests[0].tools.map((tool) => tool.name)).toEqual(['weather', 'final_answer']);

    const plain = new ScriptedModelClient([{ text: '{}' }]);
    const runner = new LlmAgentRunner(plain, weatherProvider());
    await expect(runner.complete('x', { output: Verdict, outputPolicy: { mode: 'native' } })).rejects.toMatchObject({
      code: 'invalid_run_options',
    });
    await expect(
      runner.complete('x', { output: Verdict, outputPolicy: { mode: 'json' as never } }),
    ).rejects.toMatchObject({ code: 'invalid_run_options' });
    expect(plain.requests).toHaveLength(0);
  });

  it('lets a tool share the final-answer name in native mode (there is no final-answer tool)', async () => {
    const provider = new FunctionProvider().add('final_answer', () => 'ok', {}, {});
    const model = new ScriptedModelClient(
      [{ toolCalls: [{ id: 't', name: 'final_answer', arguments: {} }] }, { text: '{"city":"Oslo","degrees":1}' }],
      native,
    );
    const result = await new LlmAgentRunner(model, provider).complete('x', { output: Verdict });
    expect(result.output).toMatchObject({ city: 'Oslo', degrees: 1 });
    expect(provider.calls.map((call) => call.toolName)).toEqual(['final_answer']);
    expect(result.toolCalls[0]).toMatchObject({ callId: 't', outcome: { ok: true }, attempts: 1 });
  });

  it('works through stream() (text deltas of the JSON) and records the repair in a durable run', async () => {
    const store = new SqliteRunStore(`${temp.path}/native.db`);
    const model = new ScriptedModelClient(
      [
        { toolCalls: [{ id: 'c1', name: 'weather', arguments: { city: 'Lima' } }] },
        { text: '{"city":"Lima"}' },
        { text: '{"city":"Lima","degrees":19}' },
      ],
      native,
    );
    const stream = new LlmAgentRunner(model, weatherProvider()).stream('Weather?', {
      output: VerdictSchema,
      store,
      runId: 'native',
    });
    const events: LlmAgentStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    const deltas = events.flatMap((event) => (event.type === 'text_delta' ? [event.text] : []));
    expect(deltas.join('')).toContain('{"city":"Lima","degrees":19}');
    const result = await stream.result;
    expect(result.output).toEqual({ city: 'Lima', degrees: 19, goOut: true });
    expect(events.at(-1)).toMatchObject({
      type: 'run_finished',
      result: { output: { city: 'Lima', degrees: 19, goOut: true } },
    });
    const record = (await store.loadRun('native'))!;
    expect(record.status).toBe('completed');
    expect(record.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
      'assistant',
    ]);
    expect(record.messages.at(-1)).toMatchObject({ role: 'assistant', content: '{"city":"Lima","degrees":19}' });
    await store.close();
  });
});

describe('a durable native-mode run that failed after a repair was asked for', () => {
  it('resumes by asking the model again, not by taking the refused answer as the end of the run', async () => {
    const store = new MemoryRunStore();
    const outage = (): never => {
      throw new Error('model outage');
    };
    const first = new ScriptedModelClient([{ text: 'not JSON' }, outage], native);
    await expect(
      new LlmAgentRunner(first, weatherProvider()).complete('Weather?', { output: Verdict, store, runId: 'n' }),
    ).rejects.toThrow('model outage');
    const failed = (await store.loadRun('n'))!;
    expect(failed.status).toBe('failed');
    expect(failed.messages.at(-1)).toMatchObject({ role: 'user', content: expect.stringContaining('not accepted') });

    const second = new ScriptedModelClient([{ text: '{"city":"Oslo","degrees":2}' }], native);
    const resumed = await new LlmAgentRunner(second, weatherProvider()).resume('n', { store });
    expect(second.requests).toHaveLength(1);
    expect(second.requests[0].messages.at(-1)).toMatchObject({
      role: 'user',
      content: expect.stringContaining('not accepted'),
    });
    expect(resumed.text).toBe('{"city":"Oslo","degrees":2}');
    expect((await store.loadRun('n'))!.status).toBe('completed');
  });
});

describe('the final-answer tool under OpenAI strict mode', () => {
  it('reads a null for an optional field as absent when the call is marked nullsAreAbsent', async () => {
    const model = new ScriptedModelClient([
      { toolCalls: [{ id: 'f', name: 'final_answer', arguments: '{"city":"Oslo","degrees":3,"goOut":null}' }] },
    ]);
    const marked: typeof model.step = async (request) => {
      const response = await ScriptedModelClient.prototype.step.call(model, request);
      return { ...response, toolCalls: response.toolCalls.map((call) => ({ ...call, nullsAreAbsent: true })) };
    };
    model.step = marked;
    const result = await new LlmAgentRunner(model, weatherProvider()).complete('x', { output: Verdict });
    expect(result.output).toMatchObject({ city: 'Oslo', degrees: 3 });
    expect(result.output).not.toHaveProperty('goOut');
  });
});
