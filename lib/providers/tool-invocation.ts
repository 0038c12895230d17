import { ToolDescriptor } from '../contract/tool-descriptor';
import { JsonObject, JsonValue } from '../outcome/json-value';

/** Progress a long-running tool reports with a heartbeat. */
export interface HeartbeatProgress {
  /** Fraction done, 0..1, when known. */
  readonly fraction?: number;
  /** A short human-readable status. */
  readonly message?: string;
  /** Any structured detail. */
  readonly details?: JsonValue;
}

/** The hard deadline of one attempt. */
export interface ToolDeadline {
  /** The declared timeout of the contract. */
  readonly timeoutMs: number;
  /** Epoch milliseconds (of the runner's clock) at which the attempt is aborted. */
  readonly deadlineAtMs: number;
}

/**
 * Everything the runner knows about one attempt of one call, given to providers that take the
 * rich form. Fields guarded by a capability are present only when the provider declares it for
 * the tool: `idempotencyKey` (capability `idempotencyKey`), `context` (`invocationContext`).
 * `reportHeartbeat` is a no-op unless the provider declares `heartbeat`.
 */
export interface ToolInvocation {
  readonly toolName: string;
  readonly descriptor: ToolDescriptor;
  /**
   * The parsed and validated arguments: a fresh copy for each attempt, equal to what approval and audit saw (mutating
   * it changes nothing else).
   */
  readonly arguments: JsonObject;
  /** The model's tool call id; the same on every attempt and after a resume. */
  readonly callId: string;
  /** Derived from the run and the call: the same on every attempt and after a resume. */
  readonly idempotencyKey?: string;
  /** 1-based attempt number. */
  readonly attempt: number;
  /** The run this call belongs to. */
  readonly runId: string;
  /** The host's execution context. */
  readonly context?: unknown;
  readonly deadline: ToolDeadline;
  /** Aborted at the deadline, at heartbeat silence, or when the run aborts. */
  readonly signal: AbortSignal;
  /** Report liveness and progress; resets the heartbeat idle limit, never the deadline. */
  readonly reportHeartbeat: (progress?: HeartbeatProgress) => void;
}
