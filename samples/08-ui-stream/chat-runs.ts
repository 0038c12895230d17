/**
 * The runs of the sample's chats, decoupled from the HTTP requests that started them: each run is driven on the
 * server with its events kept in the store (`keepEvents`), and every response (the `POST` that starts or resumes
 * it, the `GET` a reloaded page resumes with) follows the kept events. A page that goes away mid-run stops only its
 * follower; the run goes on and the next follower picks it up.
 */
import { ServerResponse } from 'node:http';
import { RunStore } from '../../lib';
import { hasRunEventLog } from '../../lib/durable';
import {
  FollowedUIChunk,
  followRunResponse,
  followUIMessageStream,
  fromUIMessages,
  UIApprovalDecisions,
  UIStreamApprovals,
} from '../../lib/ui-stream';
import type { ChatRunDriver } from './run-drivers';

/** The run a chat is on: its id, and for a run resumed after an approval, where its resumed stream starts. */
export interface ChatRun {
  readonly runId: string;
  /** The approval the resumed stream continues (`toUIMessageStream`'s `continues`). */
  readonly continues?: UIApprovalDecisions;
  /** The last kept event before the resumed stream: its stream is the one that asked for approval. */
  readonly resumedAfter?: number;
}

/** Where a followed stream starts: after an SSE id it issued (`lastEventId`), or after a whole kept event. */
type FollowFrom = { readonly lastEventId?: string } | { readonly afterEvent: number };

/** The chats' runs: starts and resumes runs, and answers their followed UI message streams. */
export class ChatRuns {
  private readonly chats = new Map<string, ChatRun>();

  constructor(
    private readonly store: RunStore,
    private readonly runs: ChatRunDriver,
    private readonly approvals: UIStreamApprovals,
  ) {}

  /** Starts a run of `messages` for `chatId` (in this process or on a queue worker); answers the run. */
  async start(chatId: string, runId: string, messages: unknown): Promise<ChatRun> {
    const input = fromUIMessages(messages);
    await this.runs.start(runId, input);
    const run: ChatRun = { runId };
    this.chats.set(chatId, run);
    return run;
  }

  /** Resumes the run `decided` answered an approval of; answers the run. */
  async resume(chatId: string, decided: UIApprovalDecisions): Promise<ChatRun> {
    const run: ChatRun = {
      runId: decided.runId,
      continues: decided,
      resumedAfter: await this.lastKeptId(decided.runId),
    };
    await this.runs.resume(decided.runId);
    this.chats.set(chatId, run);
    return run;
  }

  /** The run of `chatId`, if it has one. */
  runOf(chatId: string): ChatRun | undefined {
    return this.chats.get(chatId);
  }

  /**
   * The stream a request that started or resumed `run` answers: the run's new stream, from its start. The first
   * stream's `start` chunk names the assistant message (the run id), so a replay replaces that message.
   */
  async followNew(run: ChatRun, response: ServerResponse): Promise<void> {
    const cursor = run.continues === undefined ? { lastEventId: '0:0' } : { afterEvent: run.resumedAfter ?? 0 };
    return pipe(await followRunResponse(this.store, run.runId, this.options(run, cursor)), response);
  }

  /**
   * The `GET <api>/<chatId>/stream` of the AI SDK's resume. With `Last-Event-ID` the stream continues right after
   * it. Without one (what the `Chat` class sends) it replays the whole assistant message, as `resumeStreamIsReplay`
   * expects: the run's current stream, and for a run resumed after an approval the stream that asked for it first.
   * `204` when the chat has no run or nothing is left to follow.
   */
  async followAgain(chatId: string, lastEventId: string | undefined, response: ServerResponse): Promise<void> {
    const run = this.chats.get(chatId);
    if (run === undefined) return pipe(new Response(null, { status: 204 }), response);
    const resumedAfter = run.resumedAfter ?? 0;
    if (run.continues === undefined || (lastEventId !== undefined && eventOf(lastEventId) > resumedAfter))
      return pipe(await followRunResponse(this.store, run.runId, this.options(run, { lastEventId })), response);
    // The rest of the stream that asked for approval, told after the approval was decided: its requests are told as
    // errors (no pending approval is left to sign), and the resumed stream tells those calls by their outputs.
    const first = (
      await followUIMessageStream(
        this.store,
        run.runId,
        this.options({ runId: run.runId }, { lastEventId: lastEventId ?? '0:0' }),
      )
    )?.pipeThrough(askingStreamOnly(resumedAfter));
    const resumed = await followUIMessageStream(this.store, run.runId, this.options(run, { afterEvent: resumedAfter }));
    return pipeChunks([first, resumed], response);
  }

  /** The follow options of `run`: its message id on its first stream, the approval it continues on the next. */
  private options(run: ChatRun, from: FollowFrom) {
    return {
      approvals: this.approvals,
      ...('afterEvent' in from
        ? { afterEvent: from.afterEvent }
        : from.lastEventId === undefined
          ? {}
          : { lastEventId: from.lastEventId }),
      ...(run.continues !== undefined ? { continues: run.continues } : { messageId: run.runId }),
    };
  }

  /** The id of the last event kept for `runId` (0 when none). */
  private async lastKeptId(runId: string): Promise<number> {
    if (!hasRunEventLog(this.store)) return 0;
    let last = 0;
    for (;;) {
      const events = await this.store.readRunEvents(runId, { after: last, limit: 1000 });
      if (events.length === 0) return last;
      last = events[events.length - 1].id;
    }
  }
}

/** The kept event id of an SSE id this server issued (`<event>:<chunk>`); 0 for anything else (refused later). */
function eventOf(lastEventId: string): number {
  return Number(/^\s*([0-9]+):/.exec(lastEventId)?.[1] ?? 0);
}

/** The chunks of the stream that asked for approval (kept events up to `through`), its errors dropped. */
function askingStreamOnly(through: number): TransformStream<FollowedUIChunk, FollowedUIChunk> {
  return new TransformStream<FollowedUIChunk, FollowedUIChunk>({
    transform(followed, controller) {
      if (eventOf(followed.id) > through) controller.terminate();
      else if (followed.chunk.type !== 'error') controller.enqueue(followed);
    },
  });
}

/** Writes a Fetch `Response` to a node response; a client that goes away cancels the body (the run goes on). */
async function pipe(source: Response, response: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  source.headers.forEach((value, name) => (headers[name] = value));
  response.writeHead(source.status, headers);
  if (source.body === null) return void response.end();
  const reader = source.body.getReader();
  response.once('close', () => void reader.cancel().catch(() => undefined));
  for (let next = await reader.read(); !next.done; next = await reader.read()) response.write(next.value);
  response.end();
}

/** The headers of a UI message stream response (as `followRunResponse` sends them). */
const UI_MESSAGE_STREAM_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-vercel-ai-ui-message-stream': 'v1',
  'x-accel-buffering': 'no',
};

/** Writes the followed chunks of `streams`, one after the other, as one UI message stream response. */
async function pipeChunks(
  streams: readonly (ReadableStream<FollowedUIChunk> | undefined)[],
  response: ServerResponse,
): Promise<void> {
  const present = streams.filter((stream): stream is ReadableStream<FollowedUIChunk> => stream !== undefined);
  if (present.length === 0) return pipe(new Response(null, { status: 204 }), response);
  response.writeHead(200, UI_MESSAGE_STREAM_HEADERS);
  let closed = false;
  let reader: ReadableStreamDefaultReader<FollowedUIChunk> | undefined;
  response.once('close', () => {
    closed = true;
    void reader?.cancel().catch(() => undefined);
    for (const stream of present) if (!stream.locked) void stream.cancel().catch(() => undefined);
  });
  for (const stream of present) {
    if (closed) return;
    reader = stream.getReader();
    for (let next = await reader.read(); !next.done && !closed; next = await reader.read())
      response.write(`id: ${next.value.id}\ndata: ${JSON.stringify(next.value.chunk)}\n\n`);
  }
  response.end('data: [DONE]\n\n');
}
