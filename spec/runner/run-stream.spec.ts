import {
  LlmAgentRunner,
  LlmAgentStreamEvent,
  ModelRequest,
  ModelResponse,
  ScriptedModelClient,
  ScriptedTurn,
  ToolInvocation,
} from '../../lib';
import { ModelStepper } from '../../lib/model';
import { SqliteRunStore } from '../../lib/durable/sqlite';
import { makeTempDir } from '../durable/temp-dir';
import { FunctionProvider } from './support';

const temp = makeTempDir('run-stream');
afterAll(() => temp.cleanup());

const cityArgs = { city: { type: 'string' } };

function weatherScript(): ScriptedTurn[] {
  return [
    { text: 'Let me check.', toolCalls: [{ id: 'c1', name: 'weather', arguments: '{"city":"Paris"}' }] },
    { text: 'It is sunny in Paris.' },
  ];
}

function weatherProvider(onInvoke?: (invocation: ToolInvocation) => unknown): FunctionProvider {
  return new FunctionProvider().add(
    'weather',
    (invocation) => onInvoke?.(invocation) ?? { city: (invocation.arguments as { city: string }).city, sky: 'sunny' },
    {},
    cityArgs,
  );
}

async function collect(stream: AsyncIterable<LlmAgentStreamEvent>): Promise<LlmAgentStreamEvent[]> {
  const events: LlmAgentStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

/** A model with `step()` only: the runner synthesizes its events. */
class StepOnlyModel implements ModelStepper {
  readonly modelName = 'step-only';
  private readonly inner: ScriptedModelClient;
  constructor(turns: ScriptedTurn[]) {
    this.inner = new ScriptedModelClient(turns);
  }
  step(request: ModelRequest): Promise<ModelResponse> {
    return this.inner.step(request);
  }
}

describe('LlmAgentRunner.stream()', () => {
  it('streams text and argument deltas, each outcome, each step and the result, in order', async () => {
    const runner = new LlmAgentRunner(new ScriptedModelClient(weatherScript()), weatherProvider());
    const events = await collect(runner.stream('Weather in Paris?', { runId: 'r1' }));
    const types = events.map((event) => event.type);
    expect(types[0]).toBe('run_started');
    expect(types.at(-1)).toBe('run_finished');
    const firstStep = events.filter((event) => 'step' in event && event.step === 1);
    expect(firstStep.map((event) => event.type)).toEqual([
      'text_delta',
      'text_delta',
      'text_delta',
      'tool_call_started',
      'tool_call_delta',
      'tool_call_delta',
      'tool_call_delta',
      'tool_call_finished',
      'step_finished',
    ]);
    const text = (step: number) =>
      events.flatMap((event) => (event.type === 'text_delta' && event.step === step ? [event.text] : [])).join('');
    expect(text(1)).toBe('Let me check.');
    expect(text(2)).toBe('It is sunny in Paris.');
    const argumentText = events
      .flatMap((event) => (event.type === 'tool_call_delta' ? [event.argumentsDelta] : []))
      .join('');
    expect(argumentText).toBe('{"city":"Paris"}');
    expect(events.find((event) => event.type === 'tool_call_delta')).toMatchObject({ callId: 'c1', index: 0, step: 1 });
    const finished = events.find((event) => event.type === 'tool_call_finished');
    expect(finished).toMatchObject({
      callId: 'c1',
      toolName: 'weather',
      attempts: 1,
      outcome: { ok: true, data: { city: 'Paris', sky: 'sunny' } },
    });
    const steps = events.filter((event) => event.type === 'step_finished');
    expect(
      steps.map((event) => (event.type === 'step_finished' ? [event.step, event.response?.stopReason] : [])),
    ).toEqual([
      [1, 'tool_use'],
      [2, 'end_turn'],
    ]);
    const last = events.at(-1)!;
    expect(last.type === 'run_finished' && last.result.text).toBe('It is sunny in Paris.');
  });

  it('returns the result complete() returns for the same script', async () => {
    const completed = await new LlmAgentRunner(new ScriptedModelClient(weatherScript()), weatherProvider()).complete(
      'Weather?',
      { runId: 'same' },
    );
    const stream = new LlmAgentRunner(new ScriptedModelClient(weatherScript()), weatherProvider()).stream('Weather?', {
      runId: 'same',
    });
    await collect(stream);
    const streamed = await stream.result;
    expect({ ...streamed, toolCalls: streamed.toolCalls.map((call) => ({ ...call, durationMs: 0 })) }).toEqual({
      ...completed,
      toolCalls: completed.toolCalls.map((call) => ({ ...call, durationMs: 0 })),
    });
  });

  it('synthesizes the deltas of a model that can only step()', async () => {
    const runner = new LlmAgentRunner(new StepOnlyModel(weatherScript()), weatherProvider());
    const events = await collect(runner.stream('Weather?'));
    expect(
      events
        .filter((event) => event.type !== 'run_started' && event.type !== 'run_finished')
        .map((event) => event.type),
    ).toEqual([
      'text_delta',
      'tool_call_started',
      'tool_call_delta',
      'tool_call_finished',
      'step_finished',
      'text_delta',
      'step_finished',
    ]);
    expect(events.find((event) => event.type === 'tool_call_delta')).toMatchObject({
      argumentsDelta: '{"city":"Paris"}',
    });
  });

  it('never runs partial arguments: a call is dispatched only after its whole response, with the parsed arguments', async () => {
    const seen: string[] = [];
    const provider = weatherProvider((invocation) => {
      seen.push(`invoked ${JSON.stringify(invocation.arguments)}`);
      return 'ok';
    });
    const model = new ScriptedModelClient(
      [{ toolCalls: [{ id: 'c1', name: 'weather', arguments: '{"city":"Lisbon, Portugal"}' }] }, { text: 'done' }],
      { streamDeltas: 6 },
    );
    const runner = new LlmAgentRunner(model, provider);
    for await (const event of runner.stream('go')) {
      if (event.type === 'tool_call_delta') seen.push('delta');
      if (event.type === 'tool_call_finished') seen.push('finished');
    }
    expect(seen).toEqual([
      'delta',
      'delta',
      'delta',
      'delta',
      'delta',
      'delta',
      'invoked {"city":"Lisbon, Portugal"}',
      'finished',
    ]);
  });

  it('applies every policy as complete() does: a refused call, invalid arguments and a cut answer never run', async () => {
    const invoked: string[] = [];
    const provider = new FunctionProvider()
      .add('weather', (invocation) => invoked.push(`weather ${JSON.stringify(invocation.arguments)}`), {}, cityArgs)
      .add('delete_all', () => invoked.push('delete_all'), {}, {});
    const model = new ScriptedModelClient([
      {
        toolCalls: [
          { id: 'bad', name: 'weather', arguments: '{"city": 42}' },
          { id: 'deny', name: 'delete_all', arguments: '{}' },
        ],
      },
      { toolCalls: [{ id: 'cut', name: 'weather', arguments: '{"city":"Par' }], stopReason: 'max_tokens' },
      { text: 'giving up' },
    ]);
    const runner = new LlmAgentRunner(model, provider, {
      allowToolCall: (request) => request.toolName !== 'delete_all',
    });
    const events = await collect(runner.stream('go'));
    const outcomes = Object.fromEntries(
      events.flatMap((event) =>
        event.type === 'tool_call_finished' && !event.outcome.ok ? [[event.callId, event.outcome.error.code]] : [],
      ),
    );
    expect(outcomes).toEqual({ bad: 'invalid_arguments', deny: 'permission_denied', cut: 'incomplete_tool_call' });
    expect(invoked).toEqual([]);
  });

  it('ends the stream when the run is aborted mid-stream: the started call finishes cancelled and never runs', async () => {
    const invoked: unknown[] = [];
    const runner = new LlmAgentRunner(
      new ScriptedModelClient(weatherScript()),
      weatherProvider((invocation) => invoked.push(invocation)),
    );
    const controller = new AbortController();
    const events: LlmAgentStreamEvent[] = [];
    for await (const event of runner.stream('go', { signal: controller.signal })) {
      events.push(event);
      if (event.type === 'tool_call_delta') controller.abort();
    }
    expect(invoked).toEqual([]);
    const finished = events.filter((event) => event.type === 'tool_call_finished');
    expect(finished).toHaveLength(1);
    expect(finished[0]).toMatchObject({
      callId: 'c1',
      attempts: 0,
      outcome: { ok: false, error: { code: 'cancelled' } },
    });
    expect(events.at(-2)).toEqual({ type: 'step_finished', runId: expect.any(String), step: 1 });
    const last = events.at(-1)!;
    expect(last.type === 'run_finished' && last.result.stopReason).toBe('aborted');
    expect(last.type === 'run_finished' && last.result.messages).toEqual([{ role: 'user', content: 'go' }]);
  });

  it('gives a running call a cancelled result when the run is aborted during the call', async () => {
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const provider = weatherProvider((invocation) => {
      started();
      return new Promise((_, reject) =>
        invocation.signal.addEventListener('abort', () => reject(new Error('stopped'))),
      );
    });
    const stream = new LlmAgentRunner(new ScriptedModelClient(weatherScript()), provider).stream('go');
    const events: LlmAgentStreamEvent[] = [];
    const consumed = (async () => {
      for await (const event of stream) events.push(event);
    })();
    await running;
    stream.abort();
    await consumed;
    expect(events.find((event) => event.type === 'tool_call_finished')).toMatchObject({
      callId: 'c1',
      outcome: { ok: false, error: { code: 'cancelled' } },
    });
    expect((await stream.result).stopReason).toBe('aborted');
  });

  it('aborts the run when the consumer stops iterating, and waits until the run settled', async () => {
    const log: string[] = [];
    const provider = weatherProvider(
      (invocation) =>
        new Promise((resolve) =>
          invocation.signal.addEventListener('abort', () => {
            log.push('tool saw the abort');
            resolve('stopped');
          }),
        ),
    );
    let modelRequests = 0;
    const model = new ScriptedModelClient([
      () => {
        modelRequests++;
        return { toolCalls: [{ id: 'c1', name: 'weather', arguments: { city: 'Oslo' } }] };
      },
      () => {
        modelRequests++;
        return { text: 'never' };
      },
    ]);
    const stream = new LlmAgentRunner(model, provider).stream('go');
    for await (const event of stream) {
      if (event.type === 'tool_call_delta') {
        await new Promise((resolve) => setTimeout(resolve, 20));
        break;
      }
    }
    log.push('loop left');
    expect(log).toEqual(['tool saw the abort', 'loop left']);
    expect((await stream.result).stopReason).toBe('aborted');
    expect(modelRequests).toBe(1);
  });

  it('ends the iteration with the error of a failed model step, after the events before it', async () => {
    const model = new ScriptedModelClient([
      { text: 'partial answer', toolCalls: [{ id: 'c1', name: 'weather', arguments: '{"city":"Rome"}' }] },
    ]);
    const stream = new LlmAgentRunner(model, weatherProvider()).stream('go');
    const events: LlmAgentStreamEvent[] = [];
    await expect(
      (async () => {
        for await (const event of stream) events.push(event);
      })(),
    ).rejects.toMatchObject({ code: 'script_exhausted' });
    expect(events.some((event) => event.type === 'text_delta')).toBe(true);
    expect(events.at(-1)?.type).toBe('step_finished');
    await expect(stream.result).rejects.toMatchObject({ code: 'script_exhausted' });
  });

  it('throws invalid options at once, before anything runs', () => {
    const runner = new LlmAgentRunner(new ScriptedModelClient([]), weatherProvider());
    expect(() => runner.stream('go', { maxSteps: 0 })).toThrow(
      expect.objectContaining({ code: 'invalid_run_options' }),
    );
  });

  it("passes every runner event to the run options' onEvent as well", async () => {
    const seen: string[] = [];
    const runner = new LlmAgentRunner(new ScriptedModelClient(weatherScript()), weatherProvider());
    await collect(runner.stream('go', { onEvent: (event) => seen.push(event.type) }));
    expect(seen).toEqual([
      'run_started',
      'model_requested',
      'model_responded',
      'tool_call_started',
      'tool_attempt_started',
      'tool_call_finished',
      'model_requested',
      'model_responded',
      'run_finished',
    ]);
  });

  it('records a durable run exactly as complete() does (SQLite)', async () => {
    const store = new SqliteRunStore(`${temp.path}/same-record.db`);
    const completed = await new LlmAgentRunner(new ScriptedModelClient(weatherScript()), weatherProvider()).complete(
      'Weather?',
      { store, runId: 'by-complete' },
    );
    const stream = new LlmAgentRunner(new ScriptedModelClient(weatherScript()), weatherProvider()).stream('Weather?', {
      store,
      runId: 'by-stream',
    });
    await collect(stream);
    expect((await stream.result).stopReason).toBe(completed.stopReason);
    const comparable = async (runId: string) => {
      const record = (await store.loadRun(runId))!;
      return {
        status: record.status,
        messages: record.messages,
        toolCalls: record.toolCalls.map(({ callId, toolName, status, attempts, argumentsSha256, outcome }) => ({
          callId,
          toolName,
          status,
          attempts,
          argumentsSha256,
          outcome,
        })),
        projections: record.toolOutputProjections.map(({ callId, projectedSha256, report }) => ({
          callId,
          projectedSha256,
          report,
        })),
      };
    };
    const streamed = await comparable('by-stream');
    expect(streamed.status).toBe('completed');
    expect(streamed.messages).toHaveLength(4);
    expect(streamed).toEqual(await comparable('by-complete'));
    await store.close();
  });
});
