import { JsonObject } from '../outcome/json-value';
import { ToolOutcome } from '../outcome/tool-outcome';
import { HeartbeatProgress } from '../providers/tool-invocation';
import { ModelResponse } from '../model/model-types';
import type { BudgetLimitName, BudgetRemaining } from './run-control/budget/run-budget';

/** Fields every tool-call event carries. */
export interface ToolCallEventBase {
  readonly runId: string;
  readonly callId: string;
  /**
   * The turn that asked for the call; with `runId` and `callId` it identifies the call (a model may reuse `call_0`
   * every turn).
   */
  readonly turn: number;
  readonly toolName: string;
}

/** Everything the runner reports through `onEvent`, as noun-verb literals. */
export type LlmAgentEvent =
  | { readonly type: 'run_started'; readonly runId: string }
  | { readonly type: 'model_requested'; readonly runId: string; readonly step: number }
  | {
      readonly type: 'model_responded';
      readonly runId: string;
      readonly step: number;
      readonly response: ModelResponse;
    }
  | (ToolCallEventBase & { readonly type: 'tool_call_started'; readonly arguments: JsonObject })
  | (ToolCallEventBase & { readonly type: 'tool_call_refused'; readonly outcome: ToolOutcome })
  | (ToolCallEventBase & { readonly type: 'tool_attempt_started'; readonly attempt: number })
  | (ToolCallEventBase & {
      readonly type: 'tool_call_finished';
      readonly outcome: ToolOutcome;
      readonly attempts: number;
      readonly durationMs: number;
    })
  | (ToolCallEventBase & {
      readonly type: 'tool_retry';
      readonly attempt: number;
      readonly delayMs: number;
      readonly failure: ToolOutcome;
    })
  | (ToolCallEventBase & {
      readonly type: 'tool_timeout';
      readonly attempt: number;
      readonly limit: 'deadline' | 'heartbeat';
      readonly limitMs: number;
    })
  | (ToolCallEventBase & {
      readonly type: 'tool_late_result_discarded';
      readonly attempt: number;
      readonly outcome: ToolOutcome;
    })
  | (ToolCallEventBase & {
      readonly type: 'tool_heartbeat';
      readonly attempt: number;
      readonly progress?: HeartbeatProgress;
    })
  | (ToolCallEventBase & { readonly type: 'approval_requested'; readonly arguments: JsonObject })
  | (ToolCallEventBase & { readonly type: 'approval_decided'; readonly approved: boolean; readonly reason?: string })
  | (ToolCallEventBase & {
      readonly type: 'compensation_finished';
      readonly attempt: number;
      readonly ok: boolean;
      readonly message?: string;
    })
  | (ToolCallEventBase & {
      readonly type: 'output_validation_warning';
      readonly issues: readonly { pointer: string; message: string }[];
    })
  | (ToolCallEventBase & { readonly type: 'tool_output_truncated'; readonly report: unknown })
  | (ToolCallEventBase & { readonly type: 'hook_failed'; readonly hook: LlmAgentHookName; readonly message: string })
  | {
      readonly type: 'budget_reserved';
      readonly runId: string;
      readonly step: number;
      /** The estimated input tokens of the request. */
      readonly inputTokens: number;
      /** The request's output cap (`maxOutputTokens`), when a limit caps it. */
      readonly outputTokens?: number;
      /** The run's budget key, when it has one: the reservation was made against it too. */
      readonly budgetKey?: string;
    }
  | {
      readonly type: 'budget_exhausted';
      readonly runId: string;
      readonly limit: BudgetLimitName;
      /** The budget key whose limit tripped; absent for a limit of the run's own `budget`. */
      readonly key?: string;
      readonly max: number;
      readonly at: 'model_request' | 'tool_call';
    }
  | {
      readonly type: 'run_finished';
      readonly runId: string;
      readonly stopReason: string;
      /** What the run's budget still allows; present for a run with `budget`. */
      readonly budgetRemaining?: BudgetRemaining;
      /** What the run's budget key still allows, as the run last saw it; present for a run with `budgetKey`. */
      readonly keyBudgetRemaining?: BudgetRemaining;
    };

/**
 * A host hook (or the provider's `capabilities`) that can throw or reject during a call. What a
 * failure of each one does is documented on `LlmAgentRunOptions`; it is always reported as a
 * `hook_failed` event and never leaves a call without a result.
 */
export type LlmAgentHookName =
  | 'allowToolCall'
  | 'approvalHandler'
  | 'prepareToolResult'
  | 'onToolResult'
  | 'onToolOutputProjection'
  | 'capabilities';

/** The `type` literals of {@link LlmAgentEvent}. */
export type LlmAgentEventType = LlmAgentEvent['type'];
