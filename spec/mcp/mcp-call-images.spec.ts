import { outcomeFromMcpResult, toMcpCallToolResult } from '../../lib/mcp';
import { toolText, ToolCallResult } from '../../lib';
import { PNG_1X1 } from '../support/tiny-images';

describe('images across MCP', () => {
  it('a served call answers its Tool message parts as image and text blocks after the text', () => {
    const result: ToolCallResult = {
      callId: 'c1',
      turn: 1,
      toolName: 'shot',
      rawArguments: {},
      outcome: toolText('page', { images: [{ mediaType: 'image/png', data: PNG_1X1 }] }),
      attempts: 1,
      idempotencyKey: 'k',
      content: 'page',
      durationMs: 1,
      parts: [
        { type: 'image', mediaType: 'image/png', data: PNG_1X1 },
        { type: 'text', text: '[image 1 omitted]' },
      ],
    };
    expect(toMcpCallToolResult(result, false)).toEqual({
      content: [
        { type: 'text', text: 'page' },
        { type: 'image', data: PNG_1X1, mimeType: 'image/png' },
        { type: 'text', text: '[image 1 omitted]' },
      ],
    });
  });

  it('keeps only well-formed images of allowed types from a server result; the others are only named', () => {
    const outcome = outcomeFromMcpResult({
      content: [
        { type: 'text', text: 'here' },
        { type: 'image', data: PNG_1X1, mimeType: 'image/png' },
        { type: 'image', data: PNG_1X1, mimeType: 'image/svg+xml' },
        { type: 'image', data: 'not base64', mimeType: 'image/png' },
      ],
    });
    expect(outcome).toEqual({
      ok: true,
      text: 'here\n[image]\n[image]\n[image]',
      images: [{ mediaType: 'image/png', data: PNG_1X1 }],
    });
  });
});
