import { canonicalArgumentsSha256 } from '../../lib/durable';
import {
  Field,
  LlmAgentRunner,
  LlmAgentStreamEvent,
  MemoryRunStore,
  RunStore,
  ScriptedModelClient,
  ScriptedTurn,
  ToolInvocation,
} from '../../lib';
import { SqliteRunStore } from '../../lib/durable/sqlite';
import { makeTempDir } from '../durable/temp-dir';
import { FunctionProvider } from './support';

const temp = makeTempDir('resume-stream');
afterAll(() => temp.cleanup());

class Verdict {
  @Field({ description: 'The city.' }) city!: string;
  @Field({ description: 'Degrees Celsius.' }) degrees!: number;
}

/** `weather` reads; `book` is destructive, so a durable run without an approval handler suspends on it. */
function tools(onBook?: (invocation: ToolInvocation) => unknown): FunctionProvider {
  return new FunctionProvider()
    .add('weather', () => ({ degrees: 22 }), { sideEffect: 'read' }, { city: { type: 'string' } })
    .add('book', (invocation) => onBook?.(invocation) ?? 'booked', { sideEffect: 'destructive' });
}

const planTurn: ScriptedTurn = {
  text: 'Checking.',
  toolCalls: [
    { id: 'w', name: 'weather', arguments: { city: 'Rome' } },
    { id: 'b', name: 'book', arguments: {} },
  ],
};

/** A run that suspended on `book`'s approval, with the approval stored; `w` ran and was admitted. */
async function suspended(store: RunStore, runId: string, options: { output?: typeof Verdict } = {}): Promise<void> {
  const first = await new LlmAgentRunner(new ScriptedModelClient([planTurn]), tools()).complete('Plan a trip to Rome', {
    store,
    runId,
    ...options,
  });
  expect(first.stopReason).toBe('awaiting_approval');
  await store.decideApproval(runId, 'b', {
    approved: true,
    toolName: 'book',
    argumentsSha256: canonicalArgumentsSha256({}),
  });
}

async function collect(stream: AsyncIterable<LlmAgentStreamEvent>): Promise<LlmAgentStreamEvent[]> {
  const events: LlmAgentStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

/** What two records of the same conversation share (ids and keys differ with the run id). */
async function comparable(store: RunStore, runId: string) {
  const record = (await store.loadRun(runId))!;
  return {
    status: record.status,
    messages: record.messages,
    toolCalls: record.toolCalls.map(({ callId, toolName, status, attempts, argumentsSha256, outcome, turn }) => ({
      callId,
      toolName,
      status,
      attempts,
      argumentsSha256,
      outcome,
      turn,
    })),
    projections: record.toolOutputProjections.map(({ callId, projectedSha256, report }) => ({
      callId,
      projectedSha256,
      report,
    })),
  };
}

describe('LlmAgentRunner.resumeStream()', () => {
  it('streams the calls of the resumed turn (started, arguments, finished), then each model step, then the result', async () => {
    const store = new MemoryRunStore();
    await suspended(store, 'r');
    const stream = new LlmAgentRunner(
      new ScriptedModelClient([{ text: 'Booked, it is sunny.' }]),
      tools(),
    ).resumeStream('r', { store });
    expect(stream.runId).toBe('r');
    const events = await collect(stream);
    expect(events.map((event) => event.type)).toEqual([
      'run_started',
      'tool_call_started',
      'tool_call_delta',
      'tool_call_started',
      'tool_call_delta',
      'tool_call_finished',
      'tool_call_finished',
      'step_finished',
      'text_delta',
      'text_delta',
      'text_delta',
      'step_finished',
      'run_finished',
    ]);
    expect(events[1]).toEqual({
      type: 'tool_call_started',
      runId: 'r',
      step: 1,
      turn: 1,
      index: 0,
      callId: 'w',
      toolName: 'weather',
    });
    expect(events[2]).toEqual({
      type: 'tool_call_delta',
      runId: 'r',
      step: 1,
      turn: 1,
      index: 0,
      callId: 'w',
      argumentsDelta: '{"city":"Rome"}',
    });
    expect(events[3]).toMatchObject({
      type: 'tool_call_started',
      step: 1,
      turn: 1,
      index: 1,
      callId: 'b',
      toolName: 'book',
    });
    const finished = Object.fromEntries(
      events.flatMap((event) => (event.type === 'tool_call_finished' ? [[event.callId, event.outcome]] : [])),
    );
    expect(finished).toEqual({ w: { ok: true, data: { degrees: 22 } }, b: { ok: true, text: 'booked' } });
    expect(events[7]).toEqual({ type: 'step_finished', runId: 'r', step: 1 });
    expect(events[11]).toMatchObject({ type: 'step_finished', step: 2, response: { text: 'Booked, it is sunny.' } });
    const last = events.at(-1)!;
    expect(last.type === 'run_finished' && last.result).toMatchObject({
      stopReason: 'end_turn',
      text: 'Booked, it is sunny.',
      steps: 2,
    });
    expect((await store.loadRun('r'))!.status).toBe('completed');
  });

  it('records exactly what resume() records, and returns the same output (SQLite, two identical suspended runs)', async () => {
    const store = new SqliteRunStore(`${temp.path}/same-record.db`);
    await suspended(store, 'by-resume', { output: Verdict });
    await suspended(store, 'by-stream', { output: Verdict });
    const script = () =>
      new ScriptedModelClient([
        { text: 'Booked.' },
        { toolCalls: [{ id: 'f', name: 'final_answer', arguments: { city: 'Rome', degrees: 22 } }] },
      ]);
    const resumed = await new LlmAgentRunner(script(), tools()).resume('by-resume', { store, output: Verdict });
    const stream = new LlmAgentRunner(script(), tools()).resumeStream('by-stream', { store, output: Verdict });
    const events = await collect(stream);
    const streamed = await stream.result;
    expect(streamed.output).toBeInstanceOf(Verdict);
    expect(streamed.output).toEqual(resumed.output);
    expect({ ...streamed, runId: '', toolCalls: streamed.toolCalls.length }).toEqual({
      ...resumed,
      runId: '',
      toolCalls: resumed.toolCalls.length,
    });
    expect(
      events
        .filter((event) => event.type === 'tool_call_finished')
        .map((event) => (event.type === 'tool_call_finished' ? event.callId : '')),
    ).toEqual(['w', 'b', 'f']);
    const byStream = await comparable(store, 'by-stream');
    expect(byStream.status).toBe('completed');
    expect(byStream.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'tool',
      'assistant',
      'user',
      'assistant',
      'tool',
    ]);
    expect(byStream).toEqual(await comparable(store, 'by-resume'));
    await store.close();
  });

  it('aborted while a resumed call runs: the call finishes cancelled, the run ends aborted and is recorded cancelled', async () => {
    const store = new MemoryRunStore();
    await suspended(store, 'abort');
    let running!: () => void;
    const started = new Promise<void>((resolve) => (running = resolve));
    const provider = tools((invocation) => {
      running();
      return new Promise((_, reject) =>
        invocation.signal.addEventListener('abort', () => reject(new Error('stopped'))),
      );
    });
    const model = new ScriptedModelClient([{ text: 'never' }]);
    const controller = new AbortController();
    const stream = new LlmAgentRunner(model, provider).resumeStream('abort', { store, signal: controller.signal });
    const events: LlmAgentStreamEvent[] = [];
    const consumed = (async () => {
      for await (const event of stream) events.push(event);
    })();
    await started;
    controller.abort();
    await consumed;
    const startedCalls = events
      .filter((event) => event.type === 'tool_call_started')
      .map((event) => (event.type === 'tool_call_started' ? event.callId : ''));
    expect(startedCalls).toEqual(['w', 'b']);
    expect(events.find((event) => event.type === 'tool_call_finished' && event.callId === 'b')).toMatchObject({
      outcome: { ok: false, error: { code: 'cancelled' } },
    });
    expect(events.filter((event) => event.type === 'tool_call_finished')).toHaveLength(2);
    const last = events.at(-1)!;
    expect(last.type === 'run_finished' && last.result.stopReason).toBe('aborted');
    expect(model.requests).toHaveLength(0);
    expect((await store.loadRun('abort'))!.status).toBe('cancelled');
  });

  it('aborted mid-stream in a model step after the resume: the started call finishes cancelled and never runs', async () => {
    const store = new MemoryRunStore();
    await suspended(store, 'abort-step');
    const provider = tools();
    const model = new ScriptedModelClient([
      { toolCalls: [{ id: 'w2', name: 'weather', arguments: { city: 'Milan' } }] },
      { text: 'never' },
    ]);
    const stream = new LlmAgentRunner(model, provider).resumeStream('abort-step', { store });
    const events: LlmAgentStreamEvent[] = [];
    for await (const event of stream) {
      events.push(event);
      if (event.type === 'tool_call_delta' && event.step === 2) stream.abort();
    }
    expect(provider.calls.map((call) => call.callId)).toEqual(['b']);
    expect(events.find((event) => event.type === 'tool_call_finished' && event.callId === 'w2')).toMatchObject({
      step: 2,
      turn: 2,
      attempts: 0,
      outcome: { ok: false, error: { code: 'cancelled' } },
    });
    expect((await stream.result).stopReason).toBe('aborted');
  });

  it('a consumer that stops iterating aborts the resumed run and waits until it settled', async () => {
    const store = new MemoryRunStore();
    await suspended(store, 'leave');
    const log: string[] = [];
    const provider = tools(
      (invocation) =>
        new Promise((resolve) =>
          invocation.signal.addEventListener('abort', () => {
            log.push('tool saw the abort');
            resolve('stopped');
          }),
        ),
    );
    const model = new ScriptedModelClient([{ text: 'never' }]);
    const stream = new LlmAgentRunner(model, provider).resumeStream('leave', { store });
    for await (const event of stream) {
      if (event.type === 'tool_call_finished' && event.callId === 'w') {
        await new Promise((resolve) => setTimeout(resolve, 20));
        break;
      }
    }
    log.push('loop left');
    expect(log).toEqual(['tool saw the abort', 'loop left']);
    expect((await stream.result).stopReason).toBe('aborted');
    expect(model.requests).toHaveLength(0);
  });

  it('throws without a store at once; an unknown or completed run ends the iteration with run_conflict', async () => {
    const runner = new LlmAgentRunner(new ScriptedModelClient([]), tools());
    expect(() => runner.resumeStream('x')).toThrow(expect.objectContaining({ code: 'invalid_run_options' }));
    expect(() =>
      runner.resumeStream('x', { store: new MemoryRunStore(), streamBuffer: { streamBufferSize: 0 } }),
    ).toThrow(expect.objectContaining({ code: 'invalid_run_options' }));
    const store = new MemoryRunStore();
    await expect(collect(runner.resumeStream('missing', { store }))).rejects.toMatchObject({ code: 'run_conflict' });
    await new LlmAgentRunner(new ScriptedModelClient([{ text: 'done' }]), tools()).complete('hi', {
      store,
      runId: 'done',
    });
    await expect(collect(runner.resumeStream('done', { store }))).rejects.toMatchObject({
      code: 'run_conflict',
      message: expect.stringContaining('completed'),
    });
  });
});
