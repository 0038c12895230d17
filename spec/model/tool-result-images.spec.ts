import Anthropic from '@anthropic-ai/sdk';
import { createOpenAI } from '@ai-sdk/openai';
import OpenAI from 'openai';
import { LlmAgentRunner } from '../../lib';
import { AiSdkModelClient } from '../../lib/model/ai-sdk';
import { AnthropicModelClient } from '../../lib/model/anthropic';
import { OpenAIModelClient } from '../../lib/model/openai';
import { messageReply, startMessagesApiServer } from '../support/messages-api-server';
import { chatReply, responsesReply } from '../support/openai-api-fixtures';
import { startOpenAIApiServer } from '../support/openai-api-server';
import { PNG_1X1, pngOfSize } from '../support/tiny-images';
import { FunctionProvider } from '../runner/support';

const DATA_URL = `data:image/png;base64,${PNG_1X1}`;
const NOTE = '[image 1 (image/png, 2000 bytes) omitted: over the limit of 1000 bytes per image]';
const LIMITS = { toolImages: { maxImageBytes: 1_000, maxImages: 4 } };

/** A tool that returns a text and two PNGs, the second over the 1000-byte limit the runs set. */
function screenshot(): FunctionProvider {
  return new FunctionProvider().add('screenshot', () => ({
    ok: true,
    text: 'the page',
    images: [
      { mediaType: 'image/png', data: PNG_1X1 },
      { mediaType: 'image/png', data: pngOfSize(2_000) },
    ],
  }));
}

describe('images in tool results, on the wire of each client (real SDKs, local servers)', () => {
  it('Anthropic: the tool_result content is a text block, the image block (base64) and the note', async () => {
    const server = await startMessagesApiServer();
    try {
      server.enqueue(
        messageReply({
          content: [{ type: 'tool_use', id: 'toolu_1', name: 'screenshot', input: {} }],
          stop_reason: 'tool_use',
        }),
        messageReply({ content: [{ type: 'text', text: 'A red pixel.' }] }),
      );
      const client = new AnthropicModelClient({
        client: new Anthropic({ apiKey: 'k', baseURL: server.baseURL, maxRetries: 0 }),
      });
      const result = await new LlmAgentRunner(client, screenshot()).complete('Look.', LIMITS);
      expect(result.text).toBe('A red pixel.');
      expect(server.requests[1].body.messages[2]).toEqual({
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_1',
            content: [
              { type: 'text', text: 'the page' },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_1X1 } },
              { type: 'text', text: NOTE },
            ],
          },
        ],
      });
    } finally {
      await server.close();
    }
  });

  it('OpenAI Responses: function_call_output has an array output of input_text and input_image (data: URL)', async () => {
    const server = await startOpenAIApiServer();
    try {
      server.enqueue(
        responsesReply({ calls: [{ id: 'call_0', name: 'screenshot', pieces: ['{}'] }] }),
        responsesReply({ text: ['A red pixel.'] }),
      );
      const client = new OpenAIModelClient({
        client: new OpenAI({ apiKey: 'k', baseURL: server.baseURL, maxRetries: 0 }),
        api: 'responses',
      });
      await new LlmAgentRunner(client, screenshot()).complete('Look.', LIMITS);
      const output = server.requests[1].body.input.find(
        (item: { type?: string }) => item.type === 'function_call_output',
      );
      expect(output).toEqual({
        type: 'function_call_output',
        call_id: 'call_0',
        output: [
          { type: 'input_text', text: 'the page' },
          { type: 'input_image', detail: 'auto', image_url: DATA_URL },
          { type: 'input_text', text: NOTE },
        ],
      });
    } finally {
      await server.close();
    }
  });

  it('OpenAI Chat Completions: the tool message keeps the text and the note; the images follow in one user message', async () => {
    const server = await startOpenAIApiServer();
    try {
      server.enqueue(
        chatReply({
          calls: [
            { id: 'call_0', name: 'screenshot', pieces: ['{}'] },
            { id: 'call_1', name: 'screenshot', pieces: ['{}'] },
          ],
        }),
        chatReply({ text: ['Two red pixels.'] }),
      );
      const client = new OpenAIModelClient({
        client: new OpenAI({ apiKey: 'k', baseURL: server.baseURL, maxRetries: 0 }),
        api: 'chat',
      });
      await new LlmAgentRunner(client, screenshot()).complete('Look.', LIMITS);
      const toolContent = [
        { type: 'text', text: 'the page' },
        { type: 'text', text: NOTE },
      ];
      expect(server.requests[1].body.messages.slice(2)).toEqual([
        { role: 'tool', tool_call_id: 'call_0', content: toolContent },
        { role: 'tool', tool_call_id: 'call_1', content: toolContent },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Images returned by tool call call_0 (screenshot):' },
            { type: 'image_url', image_url: { url: DATA_URL } },
            { type: 'text', text: 'Images returned by tool call call_1 (screenshot):' },
            { type: 'image_url', image_url: { url: DATA_URL } },
          ],
        },
      ]);
    } finally {
      await server.close();
    }
  });

  it('AI SDK (@ai-sdk/openai Responses model): the tool-result output of type content reaches the wire as input_text and input_image', async () => {
    const server = await startOpenAIApiServer();
    try {
      server.enqueue(
        responsesReply({ calls: [{ id: 'call_0', name: 'screenshot', pieces: ['{}'] }] }),
        responsesReply({ text: ['A red pixel.'] }),
      );
      const model = createOpenAI({ apiKey: 'k', baseURL: server.baseURL }).responses('gpt-test');
      const result = await new LlmAgentRunner(new AiSdkModelClient(model), screenshot()).complete('Look.', LIMITS);
      expect(result.text).toBe('A red pixel.');
      const output = server.requests[1].body.input.find(
        (item: { type?: string }) => item.type === 'function_call_output',
      );
      expect(output).toMatchObject({
        call_id: 'call_0',
        output: [
          { type: 'input_text', text: 'the page' },
          { type: 'input_image', image_url: DATA_URL },
          { type: 'input_text', text: NOTE },
        ],
      });
    } finally {
      await server.close();
    }
  });
});
