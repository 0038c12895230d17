import Anthropic from '@anthropic-ai/sdk';
import { AnthropicModelClient } from '../../../lib/model/anthropic';
import { canonicalArgumentsSha256 } from '../../../lib/durable';
import { Field, LlmAgentRunner, LlmAgentRunStream, LlmAgentStreamEvent } from '../../../lib';
import { SqliteRunStore } from '../../../lib/durable/sqlite';
import { makeTempDir } from '../../durable/temp-dir';
import { FunctionProvider } from '../../runner/support';
import {
  MessagesApiServer,
  messageBody,
  messageReply,
  startMessagesApiServer,
} from '../../support/messages-api-server';

const temp = makeTempDir('anthropic-resume-stream');
afterAll(() => temp.cleanup());

class Trip {
  @Field({ description: 'The city.' }) city!: string;
  @Field({ description: 'Whether it was booked.' }) booked!: boolean;
}

const planTurn = {
  content: [
    { type: 'text', text: 'Checking the weather and booking.' },
    { type: 'tool_use', id: 'toolu_w', name: 'weather', input: { city: 'Rome' } },
    { type: 'tool_use', id: 'toolu_b', name: 'book', input: {} },
  ],
  stop_reason: 'tool_use',
  usage: { input_tokens: 20, output_tokens: 10 },
};
const answerTurn = {
  content: [{ type: 'tool_use', id: 'toolu_f', name: 'final_answer', input: { city: 'Rome', booked: true } }],
  stop_reason: 'tool_use',
  usage: { input_tokens: 40, output_tokens: 6 },
};
const longText = 'The weather in Rome is fine. '.repeat(100);

function tools(): FunctionProvider {
  return new FunctionProvider()
    .add('weather', () => ({ degrees: 22 }), { sideEffect: 'read' }, { city: { type: 'string' } })
    .add('book', () => 'booked', { sideEffect: 'destructive' });
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Resolves once the stream's buffer has stayed full for a while (at most 5,000 turns of the event loop). */
async function untilFull(stream: LlmAgentRunStream, bound: number): Promise<void> {
  let full = 0;
  for (let turns = 0; full < 20; turns++) {
    if (turns === 5000) throw new Error(`the buffer never filled: ${stream.buffered} buffered`);
    await tick();
    full = stream.buffered >= bound ? full + 1 : 0;
  }
}

describe('resumeStream() and stream backpressure over AnthropicModelClient (real SDK, local server speaking SSE)', () => {
  let server: MessagesApiServer;
  let client: AnthropicModelClient;

  beforeEach(async () => {
    server = await startMessagesApiServer();
    client = new AnthropicModelClient({
      client: new Anthropic({ apiKey: 'test-key', baseURL: server.baseURL, maxRetries: 0 }),
      maxTokens: 512,
    });
  });
  afterEach(() => server.close());

  it('resumes a run with output suspended on an approval as a stream: the resumed calls, the streamed answer, the validated output (SQLite)', async () => {
    const store = new SqliteRunStore(`${temp.path}/anthropic.db`);
    server.enqueue(messageReply(planTurn));
    const first = await new LlmAgentRunner(client, tools()).complete('Plan a trip to Rome', {
      store,
      runId: 'trip',
      output: Trip,
      outputPolicy: { mode: 'tool' },
    });
    expect(first.stopReason).toBe('awaiting_approval');
    await store.decideApproval('trip', 'toolu_b', {
      approved: true,
      toolName: 'book',
      argumentsSha256: canonicalArgumentsSha256({}),
    });

    server.enqueue(messageReply(answerTurn));
    const stream = new LlmAgentRunner(client, tools()).resumeStream('trip', {
      store,
      output: Trip,
      outputPolicy: { mode: 'tool' },
    });
    const events: LlmAgentStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    const result = await stream.result;
    expect(result.output).toBeInstanceOf(Trip);
    expect(result.output).toEqual(Object.assign(new Trip(), { city: 'Rome', booked: true }));
    expect(server.requests.map((request) => request.body.stream)).toEqual([undefined, true]);
    const sent = server.requests[1].body.messages
      .at(-1)
      .content.map((block: { type: string; tool_use_id: string }) => [block.type, block.tool_use_id]);
    expect(sent).toEqual([
      ['tool_result', 'toolu_w'],
      ['tool_result', 'toolu_b'],
    ]);
    const calls = (type: string) =>
      events.flatMap((event) => (event.type === type && 'callId' in event ? [event.callId] : []));
    expect(calls('tool_call_started')).toEqual(['toolu_w', 'toolu_b', 'toolu_f']);
    expect(calls('tool_call_finished')).toEqual(['toolu_w', 'toolu_b', 'toolu_f']);
    expect(
      events.filter((event) => event.type === 'tool_call_delta' && event.callId === 'toolu_f').length,
    ).toBeGreaterThan(1);
    expect((await store.loadRun('trip'))!.status).toBe('completed');
    await store.close();
  });

  it('a slow consumer of thousands of SSE deltas: the buffer holds at most the bound, and the text arrives whole', async () => {
    server.enqueue({
      kind: 'sse',
      body: messageBody({ content: [{ type: 'text', text: longText }] }),
      pieces: longText.length,
    });
    const stream = new LlmAgentRunner(client, tools()).stream('Weather?', { streamBuffer: { streamBufferSize: 8 } });
    let text = '';
    let deltas = 0;
    for await (const event of stream) {
      if (event.type === 'text_delta') {
        text += event.text;
        deltas++;
      }
      if (deltas % 3 === 0) await tick();
    }
    expect(deltas).toBe(longText.length);
    expect(text).toBe(longText);
    expect(stream.maxBuffered).toBe(8);
  });

  it('an abort while the run is blocked on a full buffer ends the run and closes the connection', async () => {
    const events = 2 + longText.length + 1;
    server.enqueue({
      kind: 'sse',
      body: messageBody({ content: [{ type: 'text', text: longText }] }),
      pieces: longText.length,
      events,
      then: 'hang',
    });
    const stream = new LlmAgentRunner(client, tools()).stream('Weather?', { streamBuffer: { streamBufferSize: 8 } });
    const iterator = stream[Symbol.asyncIterator]();
    await iterator.next();
    await untilFull(stream, 8);
    stream.abort();
    expect((await stream.result).stopReason).toBe('aborted');
    await server.waitForHangUp();
    expect(stream.maxBuffered).toBeLessThanOrEqual(8 + 2);
  });

  it('a consumer that leaves the loop while the run is blocked aborts it and closes the connection', async () => {
    server.enqueue({
      kind: 'sse',
      body: messageBody({ content: [{ type: 'text', text: longText }] }),
      pieces: longText.length,
      events: 2 + longText.length + 1,
      then: 'hang',
    });
    const stream = new LlmAgentRunner(client, tools()).stream('Weather?', { streamBuffer: { streamBufferSize: 8 } });
    for await (const event of stream) {
      if (event.type === 'text_delta') {
        await untilFull(stream, 8);
        break;
      }
    }
    await server.waitForHangUp();
    expect((await stream.result).stopReason).toBe('aborted');
  });
});
