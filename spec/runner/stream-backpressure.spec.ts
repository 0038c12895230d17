import { DEFAULT_STREAM_BUFFER_POLICY } from '../../lib/runner';
import {
  LlmAgentEvent,
  LlmAgentRunner,
  LlmAgentStreamEvent,
  ModelRequest,
  ScriptedModelClient,
  ScriptedTurn,
} from '../../lib';
import { ModelStreamEvent } from '../../lib/model';
import { FunctionProvider } from './support';

/**
 * A scripted model that counts the stream events it has handed out and notes when its stream was closed:
 * what it produced minus what the consumer took is what waits in between.
 */
class CountingModel extends ScriptedModelClient {
  produced = 0;
  closed = false;
  constructor(turns: ScriptedTurn[], deltas: number) {
    super(turns, { streamDeltas: deltas, streamPauses: false });
  }
  override async *streamStep(request: ModelRequest): AsyncGenerator<ModelStreamEvent, void, undefined> {
    try {
      for await (const event of super.streamStep(request)) {
        this.produced++;
        yield event;
      }
    } finally {
      this.closed = true;
    }
  }
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Resolves once the run is blocked: the buffer is full and the model has produced nothing for a while (at most 5,000
 * turns of the event loop).
 */
async function untilBlocked(stream: { readonly buffered: number }, model: CountingModel, bound: number): Promise<void> {
  let last = -1;
  let quiet = 0;
  for (let turns = 0; quiet < 20; turns++) {
    if (turns === 5000)
      throw new Error(`the run never blocked: ${model.produced} events produced, ${stream.buffered} buffered`);
    await tick();
    quiet = stream.buffered >= bound && model.produced === last ? quiet + 1 : 0;
    last = model.produced;
  }
}

function weatherProvider(): FunctionProvider {
  return new FunctionProvider().add('weather', () => ({ sky: 'sunny' }), {}, { city: { type: 'string' } });
}

describe('stream() backpressure (streamBuffer)', () => {
  it('has a documented default of 256 events', () => {
    expect(DEFAULT_STREAM_BUFFER_POLICY).toEqual({ streamBufferSize: 256 });
    expect(Object.isFrozen(DEFAULT_STREAM_BUFFER_POLICY)).toBe(true);
  });

  it('a slow consumer of a model streaming thousands of deltas: the buffer never holds more than the bound', async () => {
    const text = 'abcdefghij'.repeat(500);
    const model = new CountingModel([{ text }], text.length);
    const stream = new LlmAgentRunner(model, weatherProvider()).stream('go', {
      streamBuffer: { streamBufferSize: 16 },
    });
    let consumed = 0;
    let mostAhead = 0;
    let received = '';
    for await (const event of stream) {
      if (event.type === 'text_delta') {
        consumed++;
        received += event.text;
      }
      // The model's events not yet taken by this loop: they wait in the buffer (or in the model's own stream).
      mostAhead = Math.max(mostAhead, model.produced - consumed);
      if (consumed % 2 === 0) await tick();
    }
    expect(received).toBe(text);
    expect(consumed).toBe(5000);
    // At most the bound, plus the one event the model handed out that waits for room.
    expect(mostAhead).toBeLessThanOrEqual(17);
    expect(stream.maxBuffered).toBe(16);
  });

  it('goes over the bound by at most the tool calls of one step (their outcomes never wait)', async () => {
    const calls = [0, 1, 2].map((index) => ({
      id: `c${index}`,
      name: 'weather',
      arguments: { city: `City ${index}` },
    }));
    const model = new CountingModel([{ text: 'x'.repeat(1000), toolCalls: calls }, { text: 'y'.repeat(1000) }], 1000);
    const stream = new LlmAgentRunner(model, weatherProvider()).stream('go', { streamBuffer: { streamBufferSize: 8 } });
    const types: string[] = [];
    for await (const event of stream) {
      types.push(event.type);
      await tick();
    }
    expect(types.filter((type) => type === 'tool_call_finished')).toHaveLength(3);
    expect(types.at(-1)).toBe('run_finished');
    expect(stream.maxBuffered).toBeGreaterThanOrEqual(8);
    expect(stream.maxBuffered).toBeLessThanOrEqual(8 + 3);
  });

  it('never deadlocks with a consumer that awaits between events, even with a buffer of one, and delivers the same events', async () => {
    const script = (): ScriptedTurn[] => [
      { text: 'Let me check the weather.', toolCalls: [{ id: 'c1', name: 'weather', arguments: { city: 'Paris' } }] },
      { text: 'It is sunny in Paris today.' },
    ];
    const unbounded: string[] = [];
    for await (const event of new LlmAgentRunner(new CountingModel(script(), 50), weatherProvider()).stream('go', {
      runId: 'same',
    }))
      unbounded.push(JSON.stringify({ ...event, result: undefined, durationMs: undefined }));
    const bounded: string[] = [];
    const stream = new LlmAgentRunner(new CountingModel(script(), 50), weatherProvider()).stream('go', {
      runId: 'same',
      streamBuffer: { streamBufferSize: 1 },
    });
    for await (const event of stream) {
      bounded.push(JSON.stringify({ ...event, result: undefined, durationMs: undefined }));
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    expect(bounded).toEqual(unbounded);
    expect(stream.maxBuffered).toBeLessThanOrEqual(2);
    expect((await stream.result).text).toBe('It is sunny in Paris today.');
  });

  it('an abort ends a run blocked on a full buffer, with no read: the model stream is closed and the result is aborted', async () => {
    const model = new CountingModel([{ text: 'z'.repeat(2000) }], 2000);
    const stream = new LlmAgentRunner(model, weatherProvider()).stream('go', {
      streamBuffer: { streamBufferSize: 32 },
    });
    const iterator = stream[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toMatchObject({ type: 'run_started' });
    await untilBlocked(stream, model, 32);
    expect(model.produced).toBeLessThan(100);
    stream.abort();
    expect((await stream.result).stopReason).toBe('aborted');
    expect(model.closed).toBe(true);
    expect(model.produced).toBeLessThan(100);
    const rest: LlmAgentStreamEvent[] = [];
    for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) rest.push(next.value);
    expect(rest.at(-1)).toMatchObject({ type: 'run_finished', result: { stopReason: 'aborted' } });
    expect(rest.filter((event) => event.type === 'text_delta').length).toBeLessThanOrEqual(32);
    expect(stream.maxBuffered).toBeLessThanOrEqual(32 + 2);
  });

  it('a consumer that leaves the loop while the run is blocked aborts it and closes the model stream', async () => {
    const model = new CountingModel([{ text: 'z'.repeat(2000) }, { text: 'never' }], 2000);
    const stream = new LlmAgentRunner(model, weatherProvider()).stream('go', {
      streamBuffer: { streamBufferSize: 32 },
    });
    for await (const event of stream) {
      if (event.type === 'text_delta') {
        await untilBlocked(stream, model, 32);
        break;
      }
    }
    expect(model.closed).toBe(true);
    expect(model.produced).toBeLessThan(100);
    expect(model.requests).toHaveLength(1);
    expect((await stream.result).stopReason).toBe('aborted');
  });

  it("a tool's deadline fires while the consumer reads nothing and the buffer is full", async () => {
    const bound = 4;
    let bufferedAtTimeout = -1;
    let timedOut!: () => void;
    const timeout = new Promise<void>((resolve) => (timedOut = resolve));
    const provider = new FunctionProvider()
      .add('fast', () => 'done', {}, {})
      .add('hang', () => new Promise(() => undefined), { timeoutMs: 30, idempotency: 'non_idempotent' }, {});
    const model = new ScriptedModelClient(
      [
        {
          toolCalls: [
            { id: 'f', name: 'fast', arguments: {} },
            { id: 'h', name: 'hang', arguments: {} },
          ],
        },
        { text: 'The slow one timed out.' },
      ],
      { streamDeltas: 1 },
    );
    const stream = new LlmAgentRunner(model, provider).stream('go', {
      streamBuffer: { streamBufferSize: bound },
      onEvent: (event: LlmAgentEvent) => {
        if (event.type !== 'tool_timeout') return;
        bufferedAtTimeout = stream.buffered;
        timedOut();
      },
    });
    const events: LlmAgentStreamEvent[] = [];
    for await (const event of stream) {
      events.push(event);
      // After two events the consumer stops reading until the deadline has fired.
      if (events.length === 2) await timeout;
    }
    expect(bufferedAtTimeout).toBeGreaterThanOrEqual(bound);
    expect(events.find((event) => event.type === 'tool_call_finished' && event.callId === 'h')).toMatchObject({
      outcome: { ok: false },
    });
    expect((await stream.result).text).toBe('The slow one timed out.');
  });

  it('refuses a buffer size that cannot work, before anything runs', () => {
    const runner = new LlmAgentRunner(new ScriptedModelClient([]), weatherProvider());
    for (const streamBufferSize of [0, -1, 1.5, Number.NaN])
      expect(() => runner.stream('go', { streamBuffer: { streamBufferSize } })).toThrow(
        expect.objectContaining({ code: 'invalid_run_options', message: expect.stringContaining('streamBufferSize') }),
      );
  });
});
