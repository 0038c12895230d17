import type { RunStore } from '../durable/run-store';
import type { UIApprovalSigning } from './ui-approval-id';

/** What `decideUIApproval()` decided: the run to resume, the turn whose calls it decided, and each decision. */
export interface UIApprovalDecisions {
  readonly runId: string;
  readonly turn: number;
  readonly decisions: readonly {
    readonly callId: string;
    readonly toolName: string;
    readonly approved: boolean;
  }[];
}

/** The approval signing of a stream, with the store whose pending approvals it signs. */
export interface UIStreamApprovals extends UIApprovalSigning {
  /** The run's store: the approval id of a waiting call binds the arguments hash this store recorded. */
  readonly store: RunStore;
}

/** Options of `toUIMessageStream()` and `toUIMessageStreamResponse()`. */
export interface ToUIMessageStreamOptions {
  /**
   * Signs the approval ids of the calls a run suspends on (`awaiting_approval`). Without it such a call is told
   * as an `error` chunk (no approval can be answered).
   */
  readonly approvals?: UIStreamApprovals;
  /**
   * The stream continues the assistant message the client already shows: a `resumeStream()` after
   * `decideUIApproval()` answered. The calls of the decided turn already have their tool parts, so they are told by
   * their outputs only (no new step, no input chunks), and the `start` chunk sets no message id.
   */
  readonly continues?: UIApprovalDecisions;
  /** The id of the assistant message (`start` chunk). @default none: the client picks one */
  readonly messageId?: string;
  /**
   * The `errorText` of the `error` chunk a failed run ends with. @default the error's name and code for a wuwe
   * error, else "the run failed" (a message can carry internals a browser should not see)
   */
  readonly errorText?: (error: unknown) => string;
}
