import { toAnthropicMessages } from '../../../lib/model/anthropic/map-messages';

describe('toAnthropicMessages', () => {
  it('keeps a user message after tool results in the same user turn, after the results', () => {
    expect(
      toAnthropicMessages([
        { role: 'user', content: 'Go' },
        { role: 'assistant', content: '', toolCalls: [{ id: 't1', name: 'a', arguments: {} }] },
        { role: 'tool', toolCallId: 't1', toolName: 'a', content: 'done', isError: false },
        { role: 'user', content: 'Now summarise.' },
      ]),
    ).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Go' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'a', input: {} }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't1', content: 'done' },
          { type: 'text', text: 'Now summarise.' },
        ],
      },
    ]);
  });

  it('leaves out an assistant message with neither text nor tool calls', () => {
    expect(
      toAnthropicMessages([
        { role: 'user', content: 'One' },
        { role: 'assistant', content: '', toolCalls: [] },
        { role: 'user', content: 'Two' },
      ]),
    ).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'One' },
          { type: 'text', text: 'Two' },
        ],
      },
    ]);
  });

  it('uses the remembered content of an assistant turn when the lookup has it', () => {
    const remembered = [{ type: 'redacted_thinking' as const, data: 'opaque' }];
    expect(
      toAnthropicMessages([{ role: 'assistant', content: 'x', toolCalls: [] }], (message) =>
        message.content === 'x' ? remembered : undefined,
      ),
    ).toEqual([{ role: 'assistant', content: remembered }]);
  });
});
