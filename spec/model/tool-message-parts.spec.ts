import { ChatMessage, ModelApiError } from '../../lib';
import { ToolMessagePart } from '../../lib/model';
import { toAiSdkPrompt } from '../../lib/model/ai-sdk/map-prompt';
import { toAnthropicMessages } from '../../lib/model/anthropic/map-messages';
import { toChatMessages } from '../../lib/model/openai/chat-request';
import { toResponsesInput } from '../../lib/model/openai/responses-request';
import { toolMessagePartsProblem } from '../../lib/model/tool-message-parts';
import { PNG_1X1 } from '../support/tiny-images';

const IMAGE = { type: 'image', mediaType: 'image/png', data: PNG_1X1 } as const;
const call = (id: string) => ({ id, name: 'shot', arguments: {} });
const tool = (id: string, content: string, parts?: readonly ToolMessagePart[]): ChatMessage => ({
  role: 'tool',
  toolCallId: id,
  toolName: 'shot',
  content,
  isError: false,
  ...(parts === undefined ? {} : { parts }),
});

const conversation: ChatMessage[] = [
  { role: 'user', content: 'look' },
  { role: 'assistant', content: '', toolCalls: [call('c1'), call('c2')] },
  tool('c1', '', [IMAGE]),
  tool('c2', 'plain'),
  { role: 'assistant', content: 'done', toolCalls: [] },
];

describe('Tool message parts per client mapping', () => {
  it('Anthropic: no empty text block before the images; a tool message without parts keeps its string content', () => {
    const turns = toAnthropicMessages(conversation);
    expect(turns[2]).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'c1',
          content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_1X1 } }],
        },
        { type: 'tool_result', tool_use_id: 'c2', content: 'plain' },
      ],
    });
  });

  it('Anthropic refuses an image type it cannot take in a tool result (invalid_request) instead of dropping it', () => {
    const bad = [
      ...conversation.slice(0, 2),
      tool('c1', 'x', [{ type: 'image', mediaType: 'image/tiff', data: 'AAAA' }]),
    ];
    expect(() => toAnthropicMessages(bad)).toThrow(ModelApiError);
  });

  it('Chat Completions: the images message comes after the whole run of tool messages, before the next assistant message', () => {
    expect(toChatMessages(undefined, conversation).map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'tool',
      'user',
      'assistant',
    ]);
    expect(toChatMessages(undefined, conversation)[2]).toEqual({ role: 'tool', tool_call_id: 'c1', content: '' });
    expect(toChatMessages(undefined, conversation.slice(0, 4)).map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'tool',
      'user',
    ]);
    const withoutImages = [...conversation.slice(0, 2), tool('c1', 'a'), tool('c2', 'b')];
    expect(toChatMessages(undefined, withoutImages).map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'tool',
    ]);
  });

  it('Responses: an image-only output has no empty input_text', () => {
    const outputs = toResponsesInput(conversation).filter(
      (item) => (item as { type?: string }).type === 'function_call_output',
    );
    expect(outputs).toEqual([
      {
        type: 'function_call_output',
        call_id: 'c1',
        output: [{ type: 'input_image', detail: 'auto', image_url: `data:image/png;base64,${PNG_1X1}` }],
      },
      { type: 'function_call_output', call_id: 'c2', output: 'plain' },
    ]);
  });

  it('AI SDK: a content output with image-data; a plain tool message stays text', () => {
    const prompt = toAiSdkPrompt(undefined, conversation);
    expect(prompt[2]).toEqual({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'c1',
          toolName: 'shot',
          output: { type: 'content', value: [{ type: 'image-data', data: PNG_1X1, mediaType: 'image/png' }] },
        },
        { type: 'tool-result', toolCallId: 'c2', toolName: 'shot', output: { type: 'text', value: 'plain' } },
      ],
    });
  });
});

describe('toolMessagePartsProblem', () => {
  it.each<[unknown, RegExp | undefined]>([
    [undefined, undefined],
    [[IMAGE, { type: 'text', text: 'note' }], undefined],
    ['x', /must be a list/],
    [[{ type: 'audio' }], /unknown part type "audio"/],
    [[{ type: 'text', text: 1 }], /text` string only/],
    [[{ type: 'text', text: 'a', extra: 1 }], /text` string only/],
    [[{ type: 'image', url: 'https://example.com/a.png' }], /unexpected key "url"/],
    [JSON.parse('[{"type":"text","text":"a","__proto__":{}}]'), /text` string only/],
  ])('%j -> %s', (parts, problem) => {
    const found = toolMessagePartsProblem(parts);
    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found).toMatch(problem);
  });
});
