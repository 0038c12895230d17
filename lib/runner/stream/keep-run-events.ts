import type { LlmAgentRunOptions } from '../run-options';
import type { LlmAgentRunResult } from '../run-result';
import { resolveKeepEvents } from './keep-events-policy';
import { KeptRunStream } from './kept-run-stream';
import type { LlmAgentRunStream } from './stream-events';

/**
 * The stream of a run with its events kept when the (merged) options ask for it (`keepEvents`), else the stream.
 * @throws {@link LlmAgentError} `invalid_run_options` (see `resolveKeepEvents`).
 * @internal
 */
export function keptStreamOf(stream: LlmAgentRunStream, options: LlmAgentRunOptions): LlmAgentRunStream {
  const keep = resolveKeepEvents(options.keepEvents, options.store);
  return keep === undefined ? stream : new KeptRunStream(stream, keep);
}

/** Reads a run's stream to its end (each event kept on the way) and answers its result. @internal */
export async function drainedResult(stream: LlmAgentRunStream): Promise<LlmAgentRunResult> {
  for await (const event of stream) void event;
  return stream.result;
}
