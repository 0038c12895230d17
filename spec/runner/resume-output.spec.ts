import { createRecordedRun } from '../durable/recorded-run';
import { z } from 'zod';
import { canonicalArgumentsSha256 } from '../../lib/durable';
import {
  ChatMessage,
  Field,
  LlmAgentRunner,
  MemoryRunStore,
  ScriptedModelClient,
  StructuredOutputError,
} from '../../lib';
import { SqliteRunStore } from '../../lib/durable/sqlite';
import { makeTempDir } from '../durable/temp-dir';
import { FunctionProvider } from './support';

const temp = makeTempDir('resume-output');
afterAll(() => temp.cleanup());

class Verdict {
  @Field({ description: 'The city.' }) city!: string;
  @Field({ description: 'Degrees Celsius.' }) degrees!: number;

  summary(): string {
    return `${this.city}: ${this.degrees}`;
  }
}

const VerdictSchema = z.object({ city: z.string(), degrees: z.number().min(-90).max(60) });

/** `weather` reads; `book` is destructive, so a durable run without an approval handler suspends on it. */
function tools(): FunctionProvider {
  return new FunctionProvider()
    .add('weather', () => ({ degrees: 22 }), { sideEffect: 'read' }, { city: { type: 'string' } })
    .add('book', () => 'booked', { sideEffect: 'destructive' });
}

/** A run with `output` that suspended on `book`'s approval, and the approval stored. */
async function suspendedWithOutput(store: MemoryRunStore | SqliteRunStore, runId: string): Promise<void> {
  const model = new ScriptedModelClient([
    {
      toolCalls: [
        { id: 'w', name: 'weather', arguments: { city: 'Rome' } },
        { id: 'b', name: 'book', arguments: {} },
      ],
    },
  ]);
  const first = await new LlmAgentRunner(model, tools()).complete('Plan a trip to Rome', {
    store,
    runId,
    output: Verdict,
  });
  expect(first.stopReason).toBe('awaiting_approval');
  expect(first.output).toBeUndefined();
  await store.decideApproval(runId, 'b', {
    approved: true,
    toolName: 'book',
    argumentsSha256: canonicalArgumentsSha256({}),
  });
}

/** A record written as a run with `output` leaves it when its process dies right after `messages` were stored. */
async function crashedRecord(store: MemoryRunStore, runId: string, messages: ChatMessage[]): Promise<void> {
  await createRecordedRun(store, { runId, messages });
}

describe('resume() with output', () => {
  it('a run with output suspended on an approval ends with a validated output when resumed with it', async () => {
    const store = new MemoryRunStore();
    await suspendedWithOutput(store, 'approval');
    const model = new ScriptedModelClient([
      { toolCalls: [{ id: 'f', name: 'final_answer', arguments: { city: 'Rome', degrees: 22 } }] },
    ]);
    const result = await new LlmAgentRunner(model, tools()).resume('approval', { store, output: Verdict });
    expect(result.stopReason).toBe('end_turn');
    expect(result.output).toBeInstanceOf(Verdict);
    expect(result.output!.summary()).toBe('Rome: 22');
    expect(model.requests[0].tools.map((tool) => tool.name)).toEqual(['weather', 'book', 'final_answer']);
    expect((await store.loadRun('approval'))!.status).toBe('completed');
  });

  it('asks for a missing final answer and repairs an invalid one, as complete() does (Standard Schema)', async () => {
    const store = new MemoryRunStore();
    await suspendedWithOutput(store, 'repairs');
    const model = new ScriptedModelClient([
      { text: 'Booked, enjoy Rome.' },
      { toolCalls: [{ id: 'f1', name: 'final_answer', arguments: { city: 'Rome', degrees: 400 } }] },
      { toolCalls: [{ id: 'f2', name: 'final_answer', arguments: { city: 'Rome', degrees: 21 } }] },
    ]);
    const result = await new LlmAgentRunner(model, tools()).resume('repairs', {
      store,
      output: VerdictSchema,
      outputPolicy: { maxRepairs: 2 },
    });
    expect(result.output).toEqual({ city: 'Rome', degrees: 21 });
    expect(model.requests[1].messages.at(-1)).toMatchObject({
      role: 'user',
      content: expect.stringContaining("'final_answer'"),
    });
    expect(model.requests[2].messages.at(-1)).toMatchObject({ role: 'tool', toolCallId: 'f1', isError: true });
  });

  it('fails with StructuredOutputError once the repairs are used up, counting those made before the resume', async () => {
    const store = new MemoryRunStore();
    const bad = (id: string) => ({
      toolCalls: [{ id, name: 'final_answer', arguments: { city: 'Rome', degrees: 'hot' } }],
    });
    // The first process refused one bad answer, then crashed while the model was asked again.
    const crashing = new ScriptedModelClient([bad('f1')]);
    await expect(
      new LlmAgentRunner(crashing, tools()).complete('Rome?', {
        store,
        runId: 'used-up',
        output: Verdict,
        outputPolicy: { maxRepairs: 1 },
      }),
    ).rejects.toMatchObject({ code: 'script_exhausted' });
    const model = new ScriptedModelClient([bad('f2')]);
    const error = await new LlmAgentRunner(model, tools())
      .resume('used-up', { store, output: Verdict, outputPolicy: { maxRepairs: 1 } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StructuredOutputError);
    expect(error).toMatchObject({ code: 'output_invalid', lastAnswer: { city: 'Rome', degrees: 'hot' } });
    expect(model.requests).toHaveLength(1);
    expect((await store.loadRun('used-up'))!.status).toBe('failed');
  });

  it('judges a final answer the record holds without its Tool message (a crash before it), without asking the model', async () => {
    const store = new MemoryRunStore();
    await crashedRecord(store, 'pending-answer', [
      { role: 'user', content: 'Rome?' },
      {
        role: 'assistant',
        content: 'Here it is.',
        toolCalls: [{ id: 'f', name: 'final_answer', arguments: { city: 'Rome', degrees: 23 } }],
      },
    ]);
    const model = new ScriptedModelClient([]);
    const result = await new LlmAgentRunner(model, tools()).resume('pending-answer', { store, output: Verdict });
    expect(model.requests).toHaveLength(0);
    expect(result.output).toBeInstanceOf(Verdict);
    expect(result.output!.summary()).toBe('Rome: 23');
    expect(result.messages.at(-1)).toMatchObject({ role: 'tool', toolCallId: 'f', isError: false });
    expect((await store.loadRun('pending-answer'))!.status).toBe('completed');
  });

  it('takes a final answer the record already accepted (a crash before the final status), without asking the model', async () => {
    const store = new MemoryRunStore();
    await crashedRecord(store, 'accepted', [
      { role: 'user', content: 'Rome?' },
      {
        role: 'assistant',
        content: 'Done.',
        toolCalls: [{ id: 'f', name: 'final_answer', arguments: '{"city":"Rome","degrees":24}' }],
      },
      { role: 'tool', toolCallId: 'f', toolName: 'final_answer', content: 'Final answer accepted.', isError: false },
    ]);
    const model = new ScriptedModelClient([]);
    const result = await new LlmAgentRunner(model, tools()).resume('accepted', { store, output: VerdictSchema });
    expect(model.requests).toHaveLength(0);
    expect(result).toMatchObject({ stopReason: 'end_turn', text: 'Done.', output: { city: 'Rome', degrees: 24 } });
    expect((await store.loadRun('accepted'))!.status).toBe('completed');
  });

  it('a run that crashed mid-tool resumes with output: the pending call runs, then the final answer is validated (SQLite)', async () => {
    const store = new SqliteRunStore(`${temp.path}/crashed.db`);
    await createRecordedRun(store, {
      runId: 'crashed',
      messages: [
        { role: 'user', content: 'Rome?' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'w', name: 'weather', arguments: { city: 'Rome' } }] },
      ],
    });
    const provider = tools();
    const model = new ScriptedModelClient([
      { toolCalls: [{ id: 'f', name: 'final_answer', arguments: { city: 'Rome', degrees: 22 } }] },
    ]);
    const result = await new LlmAgentRunner(model, provider).resume('crashed', { store, output: Verdict });
    expect(provider.calls.map((call) => call.toolName)).toEqual(['weather']);
    expect(result.output).toBeInstanceOf(Verdict);
    expect((await store.loadRun('crashed'))!.status).toBe('completed');
    await store.close();
  });

  it('without output, a run whose record has an open final-answer call goes on as a plain run: the call is refused as unknown_tool, no output', async () => {
    const store = new MemoryRunStore();
    await crashedRecord(store, 'no-output', [
      { role: 'user', content: 'Rome?' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'f', name: 'final_answer', arguments: { city: 'Rome', degrees: 23 } }],
      },
    ]);
    const model = new ScriptedModelClient([{ text: 'Rome is 23 degrees.' }]);
    const result = await new LlmAgentRunner(model, tools()).resume('no-output', { store });
    expect(result.stopReason).toBe('end_turn');
    expect(result.text).toBe('Rome is 23 degrees.');
    expect(result.output).toBeUndefined();
    expect(result.toolCalls).toEqual([
      expect.objectContaining({
        callId: 'f',
        outcome: expect.objectContaining({ ok: false, error: expect.objectContaining({ code: 'unknown_tool' }) }),
      }),
    ]);
    expect(model.requests[0].tools.map((tool) => tool.name)).toEqual(['weather', 'book']);
    expect((await store.loadRun('no-output'))!.status).toBe('completed');
  });
});
