import Anthropic from '@anthropic-ai/sdk';
import { AnthropicModelClient, stepThroughPausedTurns } from '../../../lib/model/anthropic';
import { ModelStepper } from '../../../lib/model/model-stepper';
import { ModelRequest, ModelResponse } from '../../../lib/model/model-types';
import { MessagesApiServer, messageReply, startMessagesApiServer } from '../../support/messages-api-server';

describe('stepThroughPausedTurns', () => {
  let server: MessagesApiServer;

  beforeEach(async () => {
    server = await startMessagesApiServer();
  });

  afterEach(async () => {
    await server.close();
  });

  it('sends a paused turn back unchanged as the last message and asks again', async () => {
    const client = new AnthropicModelClient({
      client: new Anthropic({ apiKey: 'test-key', baseURL: server.baseURL, maxRetries: 0 }),
    });
    const pausedContent = [
      { type: 'text', text: 'Searching. ' },
      { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'tokyo weather' } },
      { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] },
    ];
    server.enqueue(
      messageReply({
        content: pausedContent,
        stop_reason: 'pause_turn',
        usage: { input_tokens: 100, output_tokens: 20 },
      }),
      messageReply({
        content: [{ type: 'text', text: 'It is sunny.' }],
        stop_reason: 'end_turn',
        usage: { input_tokens: 150, output_tokens: 8 },
      }),
    );
    const request: ModelRequest = {
      messages: [{ role: 'user', content: 'Weather in Tokyo?' }],
      tools: [],
      signal: new AbortController().signal,
    };

    const result = await stepThroughPausedTurns(client, request);

    expect(server.requests).toHaveLength(2);
    expect(server.requests[1].body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Tokyo?' }] },
      { role: 'assistant', content: pausedContent },
    ]);
    expect(result.response.stopReason).toBe('end_turn');
    expect(result.response.text).toBe('It is sunny.');
    expect(result.pausedTurns).toEqual([
      {
        role: 'assistant',
        content: 'Searching. ',
        toolCalls: [],
        providerContent: { provider: 'anthropic', blocks: pausedContent },
      },
    ]);
    expect(result.usage).toEqual({ inputTokens: 250, outputTokens: 28 });
  });

  it('stops after maxContinuations and returns the last paused response', async () => {
    const paused: ModelResponse = {
      text: '',
      toolCalls: [],
      stopReason: 'pause_turn',
      usage: { inputTokens: 1, outputTokens: 1 },
    };
    const requests: ModelRequest[] = [];
    const stepper: ModelStepper = {
      modelName: 'fake',
      step: async (request) => {
        requests.push(request);
        return paused;
      },
    };

    const result = await stepThroughPausedTurns(
      stepper,
      { messages: [{ role: 'user', content: 'Go' }], tools: [], signal: new AbortController().signal },
      { maxContinuations: 2 },
    );

    expect(requests).toHaveLength(3);
    expect(requests[2].messages).toHaveLength(3);
    expect(result.response.stopReason).toBe('pause_turn');
    expect(result.pausedTurns).toHaveLength(2);
    expect(result.usage).toEqual({ inputTokens: 3, outputTokens: 3 });
  });
});
