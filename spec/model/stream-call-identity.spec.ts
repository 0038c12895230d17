import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { LlmAgentRunner, LlmAgentStreamEvent, ModelApiError } from '../../lib';
import { AnthropicModelClient } from '../../lib/model/anthropic';
import { OpenAIModelClient } from '../../lib/model/openai';
import { FunctionProvider } from '../runner/support';
import { SseEvent } from '../support/messages-api-sse';
import { chatStreamReply, responsesBody, responsesStreamReply } from '../support/openai-api-fixtures';
import { useLocalModelServers } from '../support/local-model-servers';

const servers = useLocalModelServers();

const openaiClient = (api: 'chat' | 'responses'): OpenAIModelClient =>
  new OpenAIModelClient({
    client: new OpenAI({ apiKey: 'test-key', baseURL: servers.openai.baseURL, maxRetries: 0 }),
    api,
  });
const weather = (): FunctionProvider =>
  new FunctionProvider().add(
    'get_weather',
    (invocation) => `sunny in ${JSON.stringify(invocation.arguments.city)}`,
    {},
    { city: { type: 'string' } },
  );

/** Runs a stream to its end; the events, and the run's error when it failed. */
async function streamed(runner: LlmAgentRunner): Promise<{ events: LlmAgentStreamEvent[]; error?: unknown }> {
  const events: LlmAgentStreamEvent[] = [];
  try {
    for await (const event of runner.stream('Weather in Oslo and Paris?')) events.push(event);
    return { events };
  } catch (error) {
    return { events, error };
  }
}

/** Every started call finishes once, under the same id; the ids of the started calls, in order. */
function expectEveryStartedCallFinished(events: readonly LlmAgentStreamEvent[]): string[] {
  const started = events.flatMap((event) => (event.type === 'tool_call_started' ? [event.callId] : []));
  const finished = events.flatMap((event) => (event.type === 'tool_call_finished' ? [event.callId] : []));
  expect([...finished].sort()).toEqual([...started].sort());
  return started;
}

const chunk = (delta: Record<string, unknown>, finish: string | null = null): unknown => ({
  id: 'chatcmpl_test',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'gpt-test',
  choices: [{ index: 0, delta, finish_reason: finish }],
});

describe('Chat Completions stream: a second call at an index already used, with a new id', () => {
  it('is a second call: both start, run and finish under their own ids, and go back as two calls', async () => {
    const provider = weather();
    servers.openai.enqueue(
      {
        kind: 'sse',
        done: true,
        events: [
          chunk({ role: 'assistant', content: '' }),
          chunk({
            tool_calls: [
              { index: 0, id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '' } },
            ],
          }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":"Oslo"}' } }] }),
          chunk({
            tool_calls: [
              { index: 0, id: 'call_b', type: 'function', function: { name: 'get_weather', arguments: '{"city":' } },
            ],
          }),
          chunk({ tool_calls: [{ index: 0, id: 'call_b', function: { arguments: '"Paris"}' } }] }),
          chunk({}, 'tool_calls'),
        ],
      },
      chatStreamReply({ text: ['Done.'] }),
    );
    const { events, error } = await streamed(new LlmAgentRunner(openaiClient('chat'), provider));
    expect(error).toBeUndefined();
    expect(expectEveryStartedCallFinished(events)).toEqual(['call_a', 'call_b']);
    expect(provider.calls.map((call) => call.arguments)).toEqual([{ city: 'Oslo' }, { city: 'Paris' }]);
    const assistant = servers.openai.requests[servers.openai.requests.length - 1].body.messages.find(
      (message: any) => message.role === 'assistant',
    );
    expect(assistant.tool_calls.map((call: any) => [call.id, call.function.arguments])).toEqual([
      ['call_a', '{"city":"Oslo"}'],
      ['call_b', '{"city":"Paris"}'],
    ]);
  });
});

describe('Responses stream: the streamed calls and the completed response disagree', () => {
  const calls = [
    { id: 'call_a', name: 'get_weather', pieces: ['{"city":"Oslo"}'] },
    { id: 'call_b', name: 'get_weather', pieces: ['{"city":"Paris"}'] },
  ];

  it('a second function_call item at an output index already used is its own call when the response holds both', async () => {
    const provider = weather();
    const body = responsesBody({ calls });
    const [first, second] = body.output as Record<string, unknown>[];
    servers.openai.enqueue(
      {
        kind: 'sse',
        named: true,
        events: [
          { type: 'response.created', response: { ...body, status: 'in_progress', output: [] } },
          { type: 'response.output_item.added', output_index: 0, item: { ...first, arguments: '' } },
          {
            type: 'response.function_call_arguments.delta',
            output_index: 0,
            item_id: first.id,
            delta: '{"city":"Oslo"}',
          },
          { type: 'response.output_item.added', output_index: 0, item: { ...second, arguments: '' } },
          {
            type: 'response.function_call_arguments.delta',
            output_index: 0,
            item_id: second.id,
            delta: '{"city":"Paris"}',
          },
          { type: 'response.completed', response: body },
        ],
      },
      responsesStreamReply({ text: ['Done.'] }),
    );
    const { events, error } = await streamed(new LlmAgentRunner(openaiClient('responses'), provider));
    expect(error).toBeUndefined();
    expect(expectEveryStartedCallFinished(events)).toEqual(['call_a', 'call_b']);
    expect(provider.calls.map((call) => call.arguments)).toEqual([{ city: 'Oslo' }, { city: 'Paris' }]);
  });

  it('a streamed call missing from the completed response is malformed_response; nothing runs, the started call finishes cancelled', async () => {
    const provider = weather();
    const streamedBody = responsesBody({ calls });
    const completed = responsesBody({ calls: [calls[1]] });
    const [first, second] = streamedBody.output as Record<string, unknown>[];
    servers.openai.enqueue({
      kind: 'sse',
      named: true,
      events: [
        { type: 'response.output_item.added', output_index: 0, item: { ...first, arguments: '' } },
        { type: 'response.output_item.added', output_index: 1, item: { ...second, arguments: '' } },
        { type: 'response.completed', response: completed },
      ],
    });
    const { events, error } = await streamed(new LlmAgentRunner(openaiClient('responses'), provider));
    expect(ModelApiError.isInstance(error) && error.code).toBe('malformed_response');
    expect(expectEveryStartedCallFinished(events)).toEqual(['call_a', 'call_b']);
    expect(provider.calls).toHaveLength(0);
  });
});

describe('Messages API stream: a content block started at an index already used', () => {
  it('is malformed_response; nothing runs, and the first call finishes cancelled under its own id', async () => {
    const provider = weather();
    const block = (index: number, id: string): SseEvent => ({
      event: 'content_block_start',
      data: {
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id, name: 'get_weather', input: {} },
      },
    });
    const json = (index: number, partial: string): SseEvent => ({
      event: 'content_block_delta',
      data: { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: partial } },
    });
    const stop = (index: number): SseEvent => ({
      event: 'content_block_stop',
      data: { type: 'content_block_stop', index },
    });
    servers.anthropic.enqueue({
      kind: 'sse',
      rawEvents: [
        {
          event: 'message_start',
          data: {
            type: 'message_start',
            message: {
              id: 'msg_1',
              type: 'message',
              role: 'assistant',
              model: 'claude-test',
              content: [],
              stop_reason: null,
              usage: { input_tokens: 3, output_tokens: 1 },
            },
          },
        },
        block(0, 'toolu_a'),
        json(0, '{"city":"Oslo"}'),
        stop(0),
        block(0, 'toolu_b'),
        json(0, '{"city":"Paris"}'),
        stop(0),
        {
          event: 'message_delta',
          data: {
            type: 'message_delta',
            delta: { stop_reason: 'tool_use', stop_sequence: null },
            usage: { output_tokens: 9 },
          },
        },
        { event: 'message_stop', data: { type: 'message_stop' } },
      ],
    });
    const client = new AnthropicModelClient({
      client: new Anthropic({ apiKey: 'test-key', baseURL: servers.anthropic.baseURL, maxRetries: 0 }),
    });
    const { events, error } = await streamed(new LlmAgentRunner(client, provider));
    expect(ModelApiError.isInstance(error) && error.code).toBe('malformed_response');
    expect(expectEveryStartedCallFinished(events)).toEqual(['toolu_a']);
    expect(provider.calls).toHaveLength(0);
  });
});
