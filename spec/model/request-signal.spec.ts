import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { getEventListeners } from 'node:events';
import { AnthropicModelClient } from '../../lib/model/anthropic';
import { ModelRequest } from '../../lib';
import { ModelStepper, StreamingModelStepper } from '../../lib/model';
import { OpenAIModelClient } from '../../lib/model/openai';
import { requestSignal } from '../../lib/model/request-signal';
import { messageReply, startMessagesApiServer } from '../support/messages-api-server';
import { chatReply, chatStreamReply } from '../support/openai-api-fixtures';
import { startOpenAIApiServer } from '../support/openai-api-server';

const STEPS = 12;

/**
 * Sends `STEPS` whole and `STEPS` streamed requests under one run signal and returns its abort listeners after each.
 */
async function listenerCounts(client: ModelStepper & StreamingModelStepper, signal: AbortSignal): Promise<number[]> {
  const request: ModelRequest = { messages: [{ role: 'user', content: 'hi' }], tools: [], signal };
  const counts: number[] = [];
  for (let step = 0; step < STEPS; step++) {
    await client.step(request);
    counts.push(getEventListeners(signal, 'abort').length);
    for await (const event of client.streamStep(request)) void event;
    counts.push(getEventListeners(signal, 'abort').length);
  }
  return counts;
}

describe('a run signal shared by many model requests', () => {
  it('requestSignal follows its parent, and release detaches it', () => {
    const parent = new AbortController();
    const first = requestSignal(parent.signal);
    expect(getEventListeners(parent.signal, 'abort')).toHaveLength(1);
    first.release();
    expect(getEventListeners(parent.signal, 'abort')).toHaveLength(0);
    const second = requestSignal(parent.signal);
    parent.abort(new Error('stop'));
    expect(second.signal.aborted).toBe(true);
    expect(second.signal.reason).toEqual(new Error('stop'));
    expect(requestSignal(parent.signal).signal.aborted).toBe(true);
  });

  it('OpenAIModelClient leaves no abort listener behind per request (the SDK never removes its own)', async () => {
    const server = await startOpenAIApiServer();
    try {
      for (let step = 0; step < STEPS; step++)
        server.enqueue(chatReply({ text: ['ok'] }), chatStreamReply({ text: ['o', 'k'] }));
      const client = new OpenAIModelClient({
        client: new OpenAI({ apiKey: 'k', baseURL: server.baseURL, maxRetries: 0 }),
      });
      const counts = await listenerCounts(client, new AbortController().signal);
      expect(new Set(counts)).toEqual(new Set([0]));
    } finally {
      await server.close();
    }
  });

  it('AnthropicModelClient leaves no abort listener behind per request', async () => {
    const server = await startMessagesApiServer();
    try {
      for (let step = 0; step < STEPS * 2; step++) server.enqueue(messageReply());
      const client = new AnthropicModelClient({
        client: new Anthropic({ apiKey: 'k', baseURL: server.baseURL, maxRetries: 0 }),
      });
      const counts = await listenerCounts(client, new AbortController().signal);
      expect(new Set(counts)).toEqual(new Set([0]));
    } finally {
      await server.close();
    }
  });
});
