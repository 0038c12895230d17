import { loadOptionalDependency } from '../errors/optional-dependency';
import type { LlmAgentRunStream } from '../runner/stream/stream-events';
import { toUIMessageStream } from './to-ui-message-stream';
import type { ToUIMessageStreamOptions } from './ui-stream-options';

/** Options of {@link toUIMessageStreamResponse}: the stream's, and the response's status and extra headers. */
export interface ToUIMessageStreamResponseOptions extends ToUIMessageStreamOptions {
  /** @default 200 */
  readonly status?: number;
  /** Added to the UI message stream headers (`content-type: text/event-stream`, `x-vercel-ai-ui-message-stream`). */
  readonly headers?: Record<string, string>;
}

/**
 * A `Response` (Fetch API) whose body is the run's UI message stream ({@link toUIMessageStream}) as server-sent
 * events, with the AI SDK's headers: what a route handler returns to `useChat` or `DefaultChatTransport`. Encodes
 * with the AI SDK's own `createUIMessageStreamResponse`, so it needs the optional peer `ai` (loaded on first use).
 * A `node:http` server writes the stream with the AI SDK's `pipeUIMessageStreamToResponse` instead.
 *
 * @throws `MissingDependencyError` when `ai` is not installed; {@link UIStreamError} `invalid_options`.
 */
export function toUIMessageStreamResponse(
  runStream: LlmAgentRunStream,
  options: ToUIMessageStreamResponseOptions = {},
): Response {
  const ai = loadOptionalDependency<typeof import('ai')>('ai', 'toUIMessageStreamResponse');
  const { status, headers, ...streamOptions } = options;
  return ai.createUIMessageStreamResponse({
    stream: toUIMessageStream(runStream, streamOptions),
    ...(status === undefined ? {} : { status }),
    ...(headers === undefined ? {} : { headers }),
  });
}
