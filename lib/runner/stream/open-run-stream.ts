import { LlmAgentRunOptions } from '../run-options';
import { RunStreamChannel } from './run-stream';
import { streamBufferSizeOf } from './stream-buffer-policy';

/**
 * The stream of a run of `stream()` or `resumeStream()`: its listener, signal and buffer size from the options, else
 * the runner's defaults. @internal
 */
export function openRunStream(
  runId: string,
  options: LlmAgentRunOptions,
  defaults: LlmAgentRunOptions,
): RunStreamChannel {
  const bufferSize = streamBufferSizeOf(options.streamBuffer ?? defaults.streamBuffer);
  return new RunStreamChannel(
    runId,
    options.onEvent ?? defaults.onEvent,
    options.signal ?? defaults.signal,
    bufferSize,
  );
}
