import { LlmAgentError } from '../runner-error';

/**
 * How many events a run of `runner.stream()` / `runner.resumeStream()` buffers for a consumer that reads
 * slower than the run produces (backpressure).
 *
 * Once the buffer holds `streamBufferSize` events, the run waits before it adds the next model event (a
 * text or argument delta, a started call, the step's response) and before its closing events, until the
 * consumer has taken one. Only the model stream waits: running tools, their deadlines, heartbeats and
 * retries go on. The outcomes of one step's tool calls and the step's end are added without waiting, so
 * the buffer holds at most `streamBufferSize` plus the number of tool calls of one step. The events of child
 * runs (`agent_event`, from agent tools) are added without waiting too, since a child runs as a tool call: a step
 * whose agent tools run long children adds their events on top of that bound.
 *
 * The run waits only for a consumer that is iterating: a stream whose `result` is read without any
 * iteration buffers every event (read `result` alone and prefer `complete()`), and a consumer that left the
 * loop gets nothing more. An abort of the run ends every wait at once.
 */
export interface StreamBufferPolicy {
  /** The most events buffered before the run waits for the consumer; a whole number >= 1. @default 256 */
  readonly streamBufferSize?: number;
}

/** The defaults of {@link StreamBufferPolicy}. */
export const DEFAULT_STREAM_BUFFER_POLICY: Readonly<Required<StreamBufferPolicy>> = Object.freeze({
  streamBufferSize: 256,
});

/**
 * The buffer size of a policy.
 *
 * @throws {@link LlmAgentError} `invalid_run_options` for a size that is not a whole number >= 1.
 */
export function streamBufferSizeOf(policy: StreamBufferPolicy | undefined): number {
  const size = policy?.streamBufferSize ?? DEFAULT_STREAM_BUFFER_POLICY.streamBufferSize;
  if (!Number.isSafeInteger(size) || size < 1)
    throw new LlmAgentError(
      'invalid_run_options',
      `\`streamBuffer.streamBufferSize\` must be a whole number >= 1, got ${String(size)}`,
    );
  return size;
}
