/**
 * How the chat server gets its runs going: in its own process ({@link inProcessRuns}), or on a queue worker
 * ({@link queuedRuns}, real PostgreSQL). Either way the run keeps its events in the store and the server follows
 * them, so a page is streamed the same chunks wherever the run executes.
 */
import { ChatMessage, LlmAgentError, LlmAgentRunner, RunStore } from '../../lib';
import type { QueueWorker, RunQueue } from '../../lib/queue';
import { startWorker } from '../../lib/queue';

/** Starts and resumes the runs of the sample's chats. */
export interface ChatRunDriver {
  /** Starts run `runId` on the chat's messages (checked by `fromUIMessages`); resolves once it is under way. */
  start(runId: string, messages: readonly ChatMessage[]): Promise<void>;
  /** Resumes run `runId`, whose approvals were decided in the store; resolves once it is under way. */
  resume(runId: string): Promise<void>;
}

/** The name the sample's agent is enqueued and executed under. */
export const CHAT_AGENT = 'refunds';

/** Runs driven by `runner` in this process, events kept in `store`. A failed run is in the store and its events. */
export function inProcessRuns(runner: LlmAgentRunner, store: RunStore): ChatRunDriver {
  const drive = (run: Promise<unknown>): void =>
    void run.catch((error: unknown) => console.error('the run failed', error));
  return {
    start(runId, messages) {
      drive(runner.complete(messages, { runId, store, keepEvents: {} }));
      return Promise.resolve();
    },
    resume(runId) {
      drive(runner.resume(runId, { store, keepEvents: {} }));
      return Promise.resolve();
    },
  };
}

/**
 * Runs enqueued on `queue` for a worker ({@link startChatWorker}) to execute, in this process or another. A queued
 * run starts from a prompt: the chat must be one user text message (a longer chat is refused, not cut short).
 */
export function queuedRuns(queue: RunQueue): ChatRunDriver {
  return {
    async start(runId, messages) {
      const [first] = messages;
      if (messages.length !== 1 || first.role !== 'user' || typeof first.content !== 'string')
        throw new LlmAgentError('invalid_input', 'a queued chat run starts from one user text message');
      await queue.enqueue({ agent: CHAT_AGENT, input: first.content, options: { runId } });
    },
    async resume(runId) {
      if (!(await queue.resumeAfterApproval(runId)))
        throw new LlmAgentError('invalid_input', `run '${runId}' is not waiting for these approvals`);
    },
  };
}

/** A queue worker executing the sample's agent (`runner`) with its events kept, for a server on {@link queuedRuns}. */
export function startChatWorker(queue: RunQueue, runner: LlmAgentRunner, pollIntervalMs = 50): QueueWorker {
  return startWorker({
    queue,
    agents: { [CHAT_AGENT]: { runner, runOptions: { keepEvents: {} } } },
    concurrency: 2,
    pollIntervalMs,
  });
}
