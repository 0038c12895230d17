import { ModelApiError } from '../../../lib';
import { AiSdkStreamAssembler } from '../../../lib/model/ai-sdk/ai-sdk-stream-assembler';
import { ModelStreamEvent } from '../../../lib/model/model-stream';

const finish = {
  type: 'finish',
  finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
  usage: { inputTokens: { total: 1 }, outputTokens: { total: 1 } },
};

/** The events of `parts`, and the response's calls or the error `finish()` or a part threw. */
function assemble(parts: readonly unknown[]): {
  events: ModelStreamEvent[];
  calls?: [string, unknown][];
  error?: unknown;
} {
  const assembler = new AiSdkStreamAssembler('test');
  const events: ModelStreamEvent[] = [];
  try {
    for (const part of parts) events.push(...assembler.accept(part));
    return { events, calls: assembler.finish().toolCalls.map((call) => [call.id, call.arguments]) };
  } catch (error) {
    return { events, error };
  }
}

describe('AiSdkStreamAssembler: the calls started are the calls of the response', () => {
  it('each started call is the response call at its index, under the same id', () => {
    const { events, calls } = assemble([
      { type: 'tool-input-start', id: 'a', toolName: 'get_weather' },
      { type: 'tool-input-delta', id: 'a', delta: '{"city":"Oslo"}' },
      { type: 'tool-call', toolCallId: 'b', toolName: 'get_weather', input: '{"city":"Paris"}' },
      { type: 'tool-call', toolCallId: 'a', toolName: 'get_weather', input: '{"city":"Oslo"}' },
      finish,
    ]);
    const started = events.flatMap((event) => (event.type === 'tool_call_started' ? [[event.index, event.id]] : []));
    expect(started).toEqual([
      [0, 'a'],
      [1, 'b'],
    ]);
    expect(calls).toEqual([
      ['a', '{"city":"Oslo"}'],
      ['b', '{"city":"Paris"}'],
    ]);
  });

  it.each([
    [
      'a tool-call part twice for one id',
      [
        { type: 'tool-call', toolCallId: 'a', toolName: 'get_weather', input: '{"city":"Oslo"}' },
        { type: 'tool-call', toolCallId: 'a', toolName: 'get_weather', input: '{"city":"Paris"}' },
      ],
    ],
    [
      'a call started twice',
      [
        { type: 'tool-input-start', id: 'a', toolName: 'get_weather' },
        { type: 'tool-input-start', id: 'a', toolName: 'get_weather' },
      ],
    ],
  ])('%s is malformed_response', (_name, parts) => {
    const { error } = assemble([...parts, finish]);
    expect(ModelApiError.isInstance(error) && error.code).toBe('malformed_response');
  });
});
