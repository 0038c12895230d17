import { RunStoreError } from '../../durable/run-store-error';
import { standardFailure, toolFailure, ToolOutcome } from '../../outcome/tool-outcome';

/** What the durable record says about a call that is about to run. */
export type CallBeginning =
  /** Nothing ran before: execute it. */
  | { readonly kind: 'execute' }
  /** Its outcome was admitted before (in this or an earlier process): reuse it, execute nothing. */
  | { readonly kind: 'reuse'; readonly outcome: ToolOutcome; readonly attempts: number }
  /** It started before but was never admitted and is not idempotent: report, never re-run. */
  | { readonly kind: 'unknown'; readonly outcome: ToolOutcome; readonly attempts: number }
  /** The record refuses it (an idempotency key or call id bound to other arguments): execute nothing. */
  | { readonly kind: 'refuse'; readonly outcome: ToolOutcome };

/** A stored approval state for a call. */
export type StoredApproval =
  | { readonly state: 'pending' }
  | { readonly state: 'approved' }
  | { readonly state: 'denied'; readonly reason?: string };

/**
 * The refusal of a call whose start the store refused because its idempotency key or call id is bound to other
 * arguments (`idempotency_conflict`, `call_conflict`), or `undefined` for any other error (the caller rethrows it).
 */
export function conflictRefusal(error: unknown): Extract<CallBeginning, { kind: 'refuse' }> | undefined {
  if (!RunStoreError.isInstance(error) || (error.code !== 'idempotency_conflict' && error.code !== 'call_conflict'))
    return undefined;
  return {
    kind: 'refuse',
    outcome: toolFailure({
      code: 'conflict',
      category: 'conflict',
      retryable: false,
      message: `${error.message}; nothing was executed`,
    }),
  };
}

/** The outcome admitted for a non-idempotent call that started before an interruption and was never admitted. */
export function unknownOutcome(toolName: string): ToolOutcome {
  return standardFailure(
    'outcome_unknown',
    `'${toolName}' started before an interruption and its outcome was never recorded; it is not idempotent, so it was not run again. Check its effect before retrying.`,
  );
}
