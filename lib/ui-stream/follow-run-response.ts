import type { RunStore } from '../durable/run-store';
import { FollowedUIChunk, followUIMessageStream, FollowUIMessageStreamOptions } from './follow-ui-message-stream';

/** The headers of the AI SDK's UI message stream (as `createUIMessageStreamResponse` sends them). */
const UI_MESSAGE_STREAM_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-vercel-ai-ui-message-stream': 'v1',
  'x-accel-buffering': 'no',
});

/** Options of {@link followRunResponse}: the stream's, and the response's extra headers. */
export interface FollowRunResponseOptions extends FollowUIMessageStreamOptions {
  /** Added to the UI message stream headers. */
  readonly headers?: Record<string, string>;
}

/**
 * A `Response` (Fetch API) that follows a run by id through its store ({@link followUIMessageStream}): server-sent
 * events in the AI SDK's UI message stream format, each with an `id:` line, so a client resumes after the last one
 * it got (`Last-Event-ID`, passed as `lastEventId`). What a route returns to the AI SDK's resume (`resume: true`,
 * `chat.resumeStream()`: `GET <api>/<chatId>/stream`). `204 No Content` when there is nothing to follow (the
 * run's last stream ended and the run is not running), which the AI SDK reads as "no stream to resume".
 *
 * @throws {@link durable!FollowRunError}, {@link UIStreamError} `invalid_options` (see
 *   {@link followUIMessageStream}).
 */
export async function followRunResponse(
  store: RunStore,
  runId: string,
  options: FollowRunResponseOptions = {},
): Promise<Response> {
  const { headers, ...streamOptions } = options;
  const stream = await followUIMessageStream(store, runId, streamOptions);
  if (stream === undefined) return new Response(null, { status: 204, headers: headers ?? {} });
  const encoder = new TextEncoder();
  const body = stream.pipeThrough(
    new TransformStream<FollowedUIChunk, Uint8Array>({
      transform({ id, chunk }, controller) {
        controller.enqueue(encoder.encode(`id: ${id}\ndata: ${JSON.stringify(chunk)}\n\n`));
      },
      flush(controller) {
        controller.enqueue(encoder.encode('data: [DONE]\n\n'));
      },
    }),
  );
  return new Response(body, { status: 200, headers: { ...UI_MESSAGE_STREAM_HEADERS, ...headers } });
}
