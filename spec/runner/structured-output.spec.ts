import { DEFAULT_STRUCTURED_OUTPUT_POLICY } from '../../lib/runner';
import { LlmAgentRunner, LlmAgentStreamEvent, ScriptedModelClient, StructuredOutputError } from '../../lib';
import { SqliteRunStore } from '../../lib/durable/sqlite';
import { makeTempDir } from '../durable/temp-dir';
import { Verdict, VerdictSchema, weatherProvider } from './verdict-output';

const temp = makeTempDir('structured-output');
afterAll(() => temp.cleanup());

describe('complete(input, { output }): structured final output through a final-answer tool', () => {
  it('returns an instance of a decorated class, typed, after the tools ran', async () => {
    const model = new ScriptedModelClient([
      { toolCalls: [{ id: 'c1', name: 'weather', arguments: { city: 'Paris' } }] },
      { toolCalls: [{ id: 'c2', name: 'final_answer', arguments: { city: 'Paris', degrees: 22 } }] },
    ]);
    const result = await new LlmAgentRunner(model, weatherProvider()).complete('Weather in Paris?', {
      output: Verdict,
    });
    expect(result.stopReason).toBe('end_turn');
    expect(result.output).toBeInstanceOf(Verdict);
    expect(result.output!.summary()).toBe('Paris: 22');
    const offered = model.requests[0].tools.map((tool) => tool.name);
    expect(offered).toEqual(['weather', 'final_answer']);
    expect(model.requests[0].tools[1].inputSchema).toMatchObject({ type: 'object', required: ['city', 'degrees'] });
    expect(result.messages.at(-1)).toMatchObject({ role: 'tool', toolCallId: 'c2', isError: false });
  });

  it('returns the output of a Standard Schema (zod), defaults applied', async () => {
    const model = new ScriptedModelClient([
      { toolCalls: [{ id: 'c1', name: 'final_answer', arguments: '{"city":"Oslo","degrees":-3}' }] },
    ]);
    const result = await new LlmAgentRunner(model, weatherProvider()).complete('Weather in Oslo?', {
      output: VerdictSchema,
    });
    const output: { city: string; degrees: number; goOut: boolean } | undefined = result.output;
    expect(output).toEqual({ city: 'Oslo', degrees: -3, goOut: true });
  });

  it('sends an invalid answer back for repair and takes the corrected one', async () => {
    const model = new ScriptedModelClient([
      { toolCalls: [{ id: 'c1', name: 'final_answer', arguments: { city: 'Oslo', degrees: 400 } }] },
      { toolCalls: [{ id: 'c2', name: 'final_answer', arguments: { city: 'Oslo', degrees: 4 } }] },
    ]);
    const result = await new LlmAgentRunner(model, weatherProvider()).complete('Weather?', { output: VerdictSchema });
    expect(result.output).toEqual({ city: 'Oslo', degrees: 4, goOut: true });
    const repair = model.requests[1].messages.at(-1);
    expect(repair).toMatchObject({ role: 'tool', toolCallId: 'c1', isError: true });
    expect(repair!.content).toContain('does not match its schema');
  });

  it('fails with a typed error once the repairs are used up (default 2)', async () => {
    expect(DEFAULT_STRUCTURED_OUTPUT_POLICY.maxRepairs).toBe(2);
    const bad = { toolCalls: [{ name: 'final_answer', arguments: { city: 'Oslo' } }] };
    const model = new ScriptedModelClient([bad, bad, bad, { text: 'never' }]);
    const error = await new LlmAgentRunner(model, weatherProvider())
      .complete('Weather?', { output: Verdict })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StructuredOutputError);
    expect(error).toMatchObject({
      code: 'output_invalid',
      lastAnswer: { city: 'Oslo' },
      issues: expect.stringContaining('degrees'),
    });
    expect(model.requests).toHaveLength(3);
  });

  it('asks for the final answer when the model ends its turn with text, counting repairs (output_missing)', async () => {
    const asked = new ScriptedModelClient([
      { text: 'It is warm.' },
      { toolCalls: [{ id: 'c1', name: 'final_answer', arguments: { city: 'Rome', degrees: 30 } }] },
    ]);
    const result = await new LlmAgentRunner(asked, weatherProvider()).complete('Weather?', { output: Verdict });
    expect(result.output).toMatchObject({ city: 'Rome', degrees: 30 });
    expect(asked.requests[1].messages.at(-1)).toMatchObject({
      role: 'user',
      content: expect.stringContaining("'final_answer'"),
    });

    const stubborn = new ScriptedModelClient([{ text: 'warm' }, { text: 'warm' }], {});
    const error = await new LlmAgentRunner(stubborn, weatherProvider())
      .complete('Weather?', { output: Verdict, outputPolicy: { maxRepairs: 1 } })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'output_missing' });
    expect(stubborn.requests).toHaveLength(2);
  });

  it('refuses a final answer given beside other tool calls, which still run under their policies', async () => {
    const model = new ScriptedModelClient([
      {
        toolCalls: [
          { id: 'w', name: 'weather', arguments: { city: 'Rome' } },
          { id: 'f', name: 'final_answer', arguments: { city: 'Rome', degrees: 30 } },
        ],
      },
      { toolCalls: [{ id: 'f2', name: 'final_answer', arguments: { city: 'Rome', degrees: 30 } }] },
    ]);
    const provider = weatherProvider();
    const result = await new LlmAgentRunner(model, provider).complete('Weather?', { output: Verdict });
    expect(provider.calls).toHaveLength(1);
    expect(result.toolCalls.map((call) => [call.callId, call.outcome.ok])).toEqual([
      ['w', true],
      ['f', false],
      ['f2', true],
    ]);
    expect(
      result.messages
        .filter((message) => message.role === 'tool')
        .map((message) => message.role === 'tool' && message.toolCallId),
    ).toEqual(['w', 'f', 'f2']);
  });

  it('refuses an output that cannot work, before anything runs', async () => {
    const runner = new LlmAgentRunner(new ScriptedModelClient([]), weatherProvider());
    await expect(runner.complete('x', { output: 42 as never })).rejects.toMatchObject({ code: 'invalid_run_options' });
    await expect(
      runner.complete('x', { output: Verdict, outputPolicy: { toolName: 'weather' } }),
    ).rejects.toMatchObject({ code: 'invalid_run_options' });
    expect(() => runner.stream('x', { output: Verdict, outputPolicy: { maxRepairs: -1 } })).toThrow(
      expect.objectContaining({ code: 'invalid_run_options' }),
    );
  });

  it('works through stream() and in a durable run', async () => {
    const store = new SqliteRunStore(`${temp.path}/output.db`);
    const model = new ScriptedModelClient([
      { toolCalls: [{ id: 'c1', name: 'final_answer', arguments: { city: 'Lima', degrees: 19 } }] },
    ]);
    const stream = new LlmAgentRunner(model, weatherProvider()).stream('Weather?', {
      output: VerdictSchema,
      store,
      runId: 'structured',
    });
    const events: LlmAgentStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    expect(events.find((event) => event.type === 'tool_call_finished')).toMatchObject({
      callId: 'c1',
      outcome: { ok: true },
    });
    expect((await stream.result).output).toEqual({ city: 'Lima', degrees: 19, goOut: true });
    expect((await store.loadRun('structured'))!.status).toBe('completed');
    await store.close();
  });
});
