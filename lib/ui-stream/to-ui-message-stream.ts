import type { LlmAgentRunStream } from '../runner/stream/stream-events';
import { keyOfSigning } from './ui-approval-id';
import { UIChunkTranslator } from './ui-chunk-translator';
import type { WuweUIMessageChunk } from './ui-message-types';
import type { ToUIMessageStreamOptions } from './ui-stream-options';
import { UIStreamError } from './ui-stream-error';

/**
 * The AI SDK 6 UI message stream of a run (`runner.stream()` or `runner.resumeStream()`): a `ReadableStream` of
 * `UIMessageChunk`s that `readUIMessageStream`, `useChat` and the `Chat` class read.
 *
 * - `start` carries the run id as message metadata, `finish` the stop reason, usage and step count.
 * - Each model step is a step (`start-step` / `finish-step`); its text streams as a text part; a step's reasoning
 *   (from the response's provider content) is told whole when the step ends.
 * - Each tool call is a tool part: its input streams as the model sends it and is complete when the call finished;
 *   its output is the projected Tool message the model saw (never the raw outcome), told with the run's result.
 *   A failed call is `tool-output-error` with that content.
 * - A call the run suspended on (`awaiting_approval`) is a tool part in the `approval-requested` state, with an
 *   approval id signed by `options.approvals` and bound to the run, turn, call id, tool and arguments hash.
 * - A run that fails ends the stream with an `error` chunk.
 *
 * Pulled, not pushed: the stream asks the run for its next event only when its reader wants a chunk, so a slow
 * reader makes the run wait under its own buffer bound (`streamBuffer`); cancelling the stream ends the run as
 * leaving a `for await` loop does.
 *
 * @throws {@link UIStreamError} `invalid_options` for a bad signing secret or a continuation of another run.
 */
export function toUIMessageStream(
  runStream: LlmAgentRunStream,
  options: ToUIMessageStreamOptions = {},
): ReadableStream<WuweUIMessageChunk> {
  if (options.approvals !== undefined) keyOfSigning(options.approvals);
  if (options.continues !== undefined && options.continues.runId !== runStream.runId)
    throw new UIStreamError(
      'invalid_options',
      `\`continues\` names run '${options.continues.runId}', the stream is of run '${runStream.runId}'`,
      { runId: runStream.runId },
    );
  const translator = new UIChunkTranslator(runStream.runId, options);
  const iterator = runStream[Symbol.asyncIterator]();
  return new ReadableStream<WuweUIMessageChunk>(
    {
      async pull(controller) {
        for (;;) {
          let chunks: WuweUIMessageChunk[];
          try {
            const next = await iterator.next();
            if (next.done === true) {
              controller.close();
              return;
            }
            chunks = await translator.chunksOf(next.value);
          } catch (error) {
            for (const chunk of translator.failureChunks(error)) controller.enqueue(chunk);
            controller.close();
            return;
          }
          if (chunks.length === 0) continue;
          for (const chunk of chunks) controller.enqueue(chunk);
          return;
        }
      },
      async cancel() {
        await iterator.return?.();
      },
    },
    { highWaterMark: 1 },
  );
}
