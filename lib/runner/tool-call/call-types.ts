import { ModelToolCall, ToolMessagePart } from '../../model/model-types';
import { JsonObject } from '../../outcome/json-value';
import { ToolOutcome } from '../../outcome/tool-outcome';
import { ToolOutputProjectionReport } from '../../projection/tool-output-projection-result';
import { ToolProviderCapabilities } from '../../providers/tool-provider';
import { ToolCallRequest } from '../run-options';

/** A call that passed every check before dispatch. */
export interface AdmittedCall {
  readonly request: ToolCallRequest;
  readonly capabilities: ToolProviderCapabilities;
  readonly idempotencyKey: string;
}

/** The final outcome of a dispatched call and how many attempts it took. */
export interface DispatchedCall {
  readonly outcome: ToolOutcome;
  readonly attempts: number;
}

/** A finished call on its way to the model. */
export interface CompletedCall {
  readonly outcome: ToolOutcome;
  readonly attempts: number;
  readonly idempotencyKey: string;
  readonly args?: JsonObject;
  readonly startedAt: number;
  /** The validated request; absent for a call refused before its arguments were validated. */
  readonly request?: ToolCallRequest;
  /** Already in the store (reused after a resume). */
  readonly admitted?: boolean;
  /** Refused by a gate before it began: `onToolResult` sees it, the store has nothing to admit. */
  readonly refused?: boolean;
  /** What the model is shown instead of `outcome` (a tool `after` guardrail's refusal); `outcome` is still admitted. */
  readonly modelOutcome?: ToolOutcome;
}

/** The model-facing Tool message of an outcome and, when it was projected, the projection's report. */
export interface ModelProjection {
  readonly content: string;
  readonly report?: ToolOutputProjectionReport;
  /** The outcome's images (and notes about omitted ones), when it had any. */
  readonly parts?: readonly ToolMessagePart[];
}

/** Where a call of the per-call path starts from: the model's call, its key and its start on the run's clock. */
export interface CallStart {
  readonly call: ModelToolCall;
  readonly idempotencyKey: string;
  readonly startedAt: number;
}
