import Anthropic from '@anthropic-ai/sdk';
import { AnthropicModelClient } from '../../../lib/model/anthropic';
import { ChatMessage } from '../../../lib/model/model-types';
import { messageReply, startMessagesApiServer } from '../../support/messages-api-server';

describe('AnthropicModelClient: user messages with images and documents (real SDK)', () => {
  it('sends image and document blocks, inline or by url', async () => {
    const server = await startMessagesApiServer();
    try {
      const client = new AnthropicModelClient({
        client: new Anthropic({ apiKey: 'k', baseURL: server.baseURL, maxRetries: 0 }),
      });
      server.enqueue(messageReply());
      const message: ChatMessage = {
        role: 'user',
        content: [
          { type: 'text', text: 'Compare these.' },
          { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
          { type: 'image', url: 'https://example.com/cat.jpg' },
          { type: 'document', mediaType: 'application/pdf', data: 'JVBERi0=', title: 'Spec' },
          { type: 'document', mediaType: 'text/plain', data: Buffer.from('plain notes').toString('base64') },
          { type: 'document', url: 'https://example.com/paper.pdf' },
        ],
      };
      await client.step({ messages: [message], tools: [], signal: new AbortController().signal });
      expect(server.requests[0].body.messages).toEqual([
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Compare these.' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
            { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
            {
              type: 'document',
              source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' },
              title: 'Spec',
            },
            { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'plain notes' } },
            { type: 'document', source: { type: 'url', url: 'https://example.com/paper.pdf' } },
          ],
        },
      ]);
    } finally {
      await server.close();
    }
  });

  it('refuses media the API does not take (invalid_request), sending nothing', async () => {
    const server = await startMessagesApiServer();
    try {
      const client = new AnthropicModelClient({
        client: new Anthropic({ apiKey: 'k', baseURL: server.baseURL, maxRetries: 0 }),
      });
      const signal = new AbortController().signal;
      const tiff: ChatMessage = { role: 'user', content: [{ type: 'image', mediaType: 'image/tiff', data: 'AAAA' }] };
      const docx: ChatMessage = {
        role: 'user',
        content: [{ type: 'document', mediaType: 'application/msword', data: 'AAAA' }],
      };
      await expect(client.step({ messages: [tiff], tools: [], signal })).rejects.toMatchObject({
        code: 'invalid_request',
        detail: expect.stringContaining('image/tiff'),
      });
      await expect(client.step({ messages: [docx], tools: [], signal })).rejects.toMatchObject({
        code: 'invalid_request',
        detail: expect.stringContaining('application/msword'),
      });
      expect(server.requests).toHaveLength(0);
    } finally {
      await server.close();
    }
  });
});
