/**
 * The run queue: `wuwe/queue`. Workers on several machines take agent runs from a job queue on
 * PostgreSQL and execute them with the durable runner. Needs the optional peer dependency `pg-boss`
 * (10.4.2), loaded on the first `RunQueue.open`.
 * @packageDocumentation
 */
export { RunQueue } from './run-queue';
export { startWorker } from './queue-worker';
export type { QueueWorker, QueueWorkerOptions, QueueWorkerStopResult } from './queue-worker';
export { openQueueWorker } from './open-queue-worker';
export type { OpenQueueWorkerOptions, OwnedQueueWorker } from './open-queue-worker';
export type { QueueAgent, ResumingRunner } from './queue-agent';
export type { RunQueueOptions } from './run-queue-options';
export { RunQueueError } from './run-queue-error';
export type { RunQueueErrorCode } from './run-queue-error';
export type {
  DeadLetter,
  EnqueueRunOptions,
  EnqueueRunRequest,
  QueueApprovalDecision,
  QueueApprovalResult,
  QueuedRunMetadata,
  RunCancellation,
} from './run-queue-types';
