import { AnthropicStreamAssembler } from '../../../lib/model/anthropic/map-stream';

function toolStream(partialJson: string, stopReason: string): unknown[] {
  return [
    {
      type: 'message_start',
      message: {
        id: 'm',
        type: 'message',
        role: 'assistant',
        model: 'claude-test',
        content: [],
        stop_reason: null,
        usage: { input_tokens: 3, output_tokens: 1 },
      },
    },
    {
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'tool_use', id: 'toolu_1', name: 'write', input: {} },
    },
    { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: partialJson } },
    { type: 'content_block_stop', index: 0 },
    { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 9 } },
    { type: 'message_stop' },
  ];
}

function assemble(events: unknown[]): Record<string, unknown> {
  const assembler = new AnthropicStreamAssembler();
  for (const event of events) assembler.add(event);
  return assembler.finish();
}

describe('AnthropicStreamAssembler', () => {
  it('assembles the message body the JSON API would have returned, usage from message_delta', () => {
    expect(assemble(toolStream('{"path":"a.txt"}', 'tool_use'))).toMatchObject({
      content: [{ type: 'tool_use', id: 'toolu_1', name: 'write', input: { path: 'a.txt' } }],
      stop_reason: 'tool_use',
      usage: { input_tokens: 3, output_tokens: 9 },
    });
  });

  it('refuses a tool input that is not valid JSON in a finished answer (malformed_response)', () => {
    expect(() => assemble(toolStream('{"path":"a.t', 'tool_use'))).toThrow(
      expect.objectContaining({ code: 'malformed_response' }),
    );
  });

  it('keeps an answer cut at max_tokens, with an empty input for its cut call (which never runs)', () => {
    expect(assemble(toolStream('{"path":"a.t', 'max_tokens'))).toMatchObject({
      stop_reason: 'max_tokens',
      content: [{ type: 'tool_use', input: {} }],
    });
  });

  it('refuses events out of order', () => {
    const assembler = new AnthropicStreamAssembler();
    expect(() =>
      assembler.add({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'x' } }),
    ).toThrow(expect.objectContaining({ code: 'malformed_response' }));
    expect(() => assembler.add({ data: 1 })).toThrow(expect.objectContaining({ code: 'malformed_response' }));
  });
});
