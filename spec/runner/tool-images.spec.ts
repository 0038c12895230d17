import { join } from 'node:path';
import { ChatMessage, LlmAgentRunner, ScriptedModelClient } from '../../lib';
import { SqliteRunStore } from '../../lib/durable/sqlite';
import { ToolOutputProjectionPolicyError, ToolOutputProjectionReport } from '../../lib/projection';
import { makeTempDir } from '../durable/temp-dir';
import { PNG_1X1, pngOfSize } from '../support/tiny-images';
import { FunctionProvider } from './support';

const temp = makeTempDir('tool-images');
afterAll(() => temp.cleanup());

const PNG_PART = { type: 'image', mediaType: 'image/png', data: PNG_1X1 } as const;

function screenshotProvider(images: unknown = [{ mediaType: 'image/png', data: PNG_1X1 }]): FunctionProvider {
  return new FunctionProvider().add('screenshot', () => ({ ok: true, text: 'the page', images }));
}

function script(): ScriptedModelClient {
  return new ScriptedModelClient([
    { toolCalls: [{ id: 'c1', name: 'screenshot', arguments: {} }] },
    { text: 'I see a red pixel.' },
  ]);
}

function toolMessageOf(messages: readonly ChatMessage[]): Extract<ChatMessage, { role: 'tool' }> {
  return messages.find((message) => message.role === 'tool') as Extract<ChatMessage, { role: 'tool' }>;
}

describe('a tool whose outcome carries images', () => {
  it('sends its PNG to the model after the text, with an images report; the text ceilings count the text only', async () => {
    const model = script();
    const reports: ToolOutputProjectionReport[] = [];
    const result = await new LlmAgentRunner(model, screenshotProvider()).complete('Look at the page.', {
      onToolOutputProjection: (report) => void reports.push(report),
    });
    expect(result.text).toBe('I see a red pixel.');
    const sent = toolMessageOf(model.requests[1].messages);
    expect(sent).toEqual({
      role: 'tool',
      toolCallId: 'c1',
      toolName: 'screenshot',
      content: 'the page',
      isError: false,
      parts: [PNG_PART],
    });
    expect(result.toolCalls[0].parts).toEqual([PNG_PART]);
    expect(result.toolCalls[0].projection).toMatchObject({
      truncated: false,
      originalBytes: 8,
      projectedBytes: 8,
      images: { sent: 1, sentBytes: 70, omitted: [] },
    });
    expect(reports[0].images).toEqual(result.toolCalls[0].projection!.images);
  });

  it("an image over the run's toolImages limit becomes a note the model reads; the run goes on", async () => {
    const model = script();
    const images = [
      { mediaType: 'image/png', data: pngOfSize(3_000) },
      { mediaType: 'image/png', data: PNG_1X1 },
    ];
    const result = await new LlmAgentRunner(model, screenshotProvider(images)).complete('Look.', {
      toolImages: { maxImageBytes: 1_000, maxImages: 8 },
    });
    expect(toolMessageOf(model.requests[1].messages).parts).toEqual([
      { type: 'text', text: '[image 0 (image/png, 3000 bytes) omitted: over the limit of 1000 bytes per image]' },
      PNG_PART,
    ]);
    expect(result.toolCalls[0].projection!.images!.omitted).toEqual([{ index: 0, bytes: 3_000, reason: 'too_large' }]);
    expect(result.toolCalls[0].outcome.images).toHaveLength(2);
  });

  it.each<[string, unknown]>([
    ['bad base64', [{ mediaType: 'image/png', data: '%%%%' }]],
    ['a media type off the list', [{ mediaType: 'image/bmp', data: PNG_1X1 }]],
    ['a file URL to read', [{ mediaType: 'image/png', uri: 'file:///etc/passwd' }]],
    ['a __proto__ key', JSON.parse(`[{"mediaType":"image/png","data":"${PNG_1X1}","__proto__":{"admin":true}}]`)],
  ])('a tool returning %s gets a tool_error failure; no image reaches the model', async (_name, images) => {
    const model = script();
    const result = await new LlmAgentRunner(model, screenshotProvider(images)).complete('Look.');
    const outcome = result.toolCalls[0].outcome;
    expect(!outcome.ok && outcome.error.code).toBe('tool_error');
    const sent = toolMessageOf(model.requests[1].messages);
    expect(sent.isError).toBe(true);
    expect(sent.parts).toBeUndefined();
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it('a prepareToolResult hook that puts malformed images in the outcome gets a note, never a crash', async () => {
    const model = script();
    const result = await new LlmAgentRunner(model, screenshotProvider()).complete('Look.', {
      prepareToolResult: (outcome) => ({ ...outcome, images: [{ mediaType: 'image/png', data: 'AAAA' }] }) as never,
    });
    expect(toolMessageOf(model.requests[1].messages).parts).toEqual([
      { type: 'text', text: '[image 0 omitted: not a well-formed PNG, JPEG, GIF or WebP image]' },
    ]);
    expect(result.toolCalls[0].projection!.images!.omitted).toEqual([{ index: 0, bytes: 0, reason: 'invalid' }]);
  });

  it('refuses a toolImages policy it cannot use before the model is asked', async () => {
    const model = script();
    await expect(
      new LlmAgentRunner(model, screenshotProvider()).complete('Look.', {
        toolImages: { maxImageBytes: 0, maxImages: 1 },
      }),
    ).rejects.toBeInstanceOf(ToolOutputProjectionPolicyError);
    expect(model.requests).toHaveLength(0);
  });

  it('refuses an input conversation whose tool message has malformed parts (invalid_input)', async () => {
    const model = script();
    const messages: ChatMessage[] = [
      { role: 'user', content: 'a' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c0', name: 'screenshot', arguments: {} }] },
      {
        role: 'tool',
        toolCallId: 'c0',
        toolName: 'screenshot',
        content: 'x',
        isError: false,
        parts: [{ type: 'image', mediaType: 'image/png', data: 'not base64' }],
      },
      { role: 'user', content: 'b' },
    ];
    await expect(new LlmAgentRunner(model, screenshotProvider()).complete(messages)).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining('message 2: part 0'),
    });
    expect(model.requests).toHaveLength(0);
  });

  it('a durable run stores the images with the Tool message; a later run in another store handle continues with them', async () => {
    const path = join(temp.path, 'images.db');
    const store = new SqliteRunStore(path);
    await new LlmAgentRunner(script(), screenshotProvider()).complete('Look.', { store, runId: 'first' });
    await store.close();

    const reopened = new SqliteRunStore(path);
    try {
      const record = (await reopened.loadRun('first'))!;
      expect(toolMessageOf(record.messages).parts).toEqual([PNG_PART]);
      expect(record.toolOutputProjections[0].report.images).toMatchObject({ sent: 1, sentBytes: 70 });
      const next = new ScriptedModelClient([{ text: 'Still a red pixel.' }]);
      await new LlmAgentRunner(next, screenshotProvider()).complete('And now?', {
        store: reopened,
        runId: 'second',
        continueFrom: 'first',
      });
      expect(toolMessageOf(next.requests[0].messages).parts).toEqual([PNG_PART]);
    } finally {
      await reopened.close();
    }
  });
});
