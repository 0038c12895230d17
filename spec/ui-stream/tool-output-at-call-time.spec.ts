import 'reflect-metadata';
import { readUIMessageStream } from 'ai';
import { LlmAgentEvent } from '../../lib';
import { toUIMessageStream, WuweUIMessage, WuweUIMessageChunk } from '../../lib/ui-stream';
import { buildRunner } from '../../samples/08-ui-stream/agent';

describe('tool outputs at call time', () => {
  it('tells the projected output of a call when the call finishes, before the next step starts', async () => {
    const events: LlmAgentEvent[] = [];
    const runStream = buildRunner().stream('Refund order A-1', { onEvent: (event) => void events.push(event) });
    const chunks: WuweUIMessageChunk[] = [];
    const teed = toUIMessageStream(runStream).pipeThrough(
      new TransformStream<WuweUIMessageChunk, WuweUIMessageChunk>({
        transform(chunk, controller) {
          chunks.push(chunk);
          controller.enqueue(chunk);
        },
      }),
    );
    const snapshots: WuweUIMessage[] = [];
    for await (const message of readUIMessageStream<WuweUIMessage>({ stream: teed, terminateOnError: true }))
      snapshots.push(structuredClone(message));
    const result = await runStream.result;
    const lookupCall = result.toolCalls.find((call) => call.toolName === 'LookupOrder')!;

    // The first message the reader shows with the lookup's output: no later step has started yet.
    const first = snapshots.find((message) =>
      message.parts.some((part) => part.type === 'tool-LookupOrder' && part.state === 'output-available'),
    )!;
    expect(first.parts.find((part) => part.type === 'tool-LookupOrder')).toMatchObject({
      output: lookupCall.content,
    });
    expect(first.parts.filter((part) => part.type === 'step-start')).toHaveLength(1);
    expect(first.parts.some((part) => part.type === 'tool-RefundOrder')).toBe(false);

    // In the chunks: the output comes before its step's end, never after the `finish` of the run.
    const output = chunks.findIndex((chunk) => chunk.type === 'tool-output-available');
    const firstStepEnd = chunks.findIndex((chunk) => chunk.type === 'finish-step');
    expect(output).toBeGreaterThan(-1);
    expect(output).toBeLessThan(firstStepEnd);

    // The runner's event carries the projected content, never the raw outcome.
    const finished = events.find((event) => event.type === 'tool_call_finished' && event.toolName === 'LookupOrder');
    expect(finished).toMatchObject({ content: lookupCall.content });
    expect(lookupCall.content).not.toEqual(JSON.stringify(lookupCall.outcome));
  });
});
