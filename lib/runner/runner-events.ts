import { JsonObject } from '../outcome/json-value';
import { ToolOutcome } from '../outcome/tool-outcome';
import { HeartbeatProgress } from '../providers/tool-invocation';
import { ModelResponse } from '../model/model-types';
import type { BudgetLimitName, BudgetRemaining } from './run-control/budget/run-budget';
import type { GuardrailKind, GuardrailVerdict } from './run-control/guardrails/guardrail-types';

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

/**
 * Everything the runner reports through `onEvent`, as noun-verb literals: a run's own events, and the events of the
 * child runs its agent tools started ({@link ChildAgentEvent}, type `agent_event`, the only event with an `agent`
 * path). An event without `agent` is the run's own.
 */
export type LlmAgentEvent = LlmAgentOwnEvent | ChildAgentEvent;

/** One agent tool call on the way from a run down to one of its child runs (see {@link ChildAgentEvent}). */
export interface AgentCallLink {
  /** The run that made the call. */
  readonly runId: string;
  /** The turn of the call in that run; with `callId` it identifies the call. */
  readonly turn: number;
  readonly callId: string;
  /** The agent tool's name. */
  readonly toolName: string;
  /** The child run the call started. */
  readonly childRunId: string;
}

/**
 * An event of a child run an agent tool (`runner.asTool()`) started, or of a run below that one, reported in the run
 * that made the call, in the order the child reported it (while the call runs: after its `tool_call_started`, before
 * its `tool_call_finished`). The child's own event is `event`, unchanged (its `runId` is the child's).
 *
 * - `agent`: the agent tools' names from this run down to the run that emitted `event` (`['billing']`,
 *   `['billing', 'ledger']`), for display.
 * - `calls`: the same path as calls, one per level: `calls[0]` is a call of this run, and the last one's
 *   `childRunId` is the run that emitted `event`. The ids identify each level even when two tools share a name.
 */
export interface ChildAgentEvent {
  readonly type: 'agent_event';
  /** The run that reports it: `calls[0].runId`. */
  readonly runId: string;
  readonly agent: readonly string[];
  readonly calls: readonly AgentCallLink[];
  readonly event: LlmAgentOwnEvent;
}

/** The events a run reports of itself (every {@link LlmAgentEvent} but {@link ChildAgentEvent}). */
export type LlmAgentOwnEvent =
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
      /**
       * The Tool message the model reads for this outcome: the outcome rendered and projected under the run's and
       * the contract's ceilings (the `content` of the call's `ToolCallResult`). Show this, not `outcome`, to a
       * client: it is what the model saw.
       */
      readonly content: string;
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
      /** A guardrail answered (every answer, `allow` too; a throw or a malformed answer is reported as a tripwire). */
      readonly type: 'guardrail_decided';
      readonly runId: string;
      /** Model requests made when it answered. */
      readonly step: number;
      readonly kind: GuardrailKind;
      readonly name: string;
      readonly verdict: GuardrailVerdict;
      /** The call a tool guardrail answered about. */
      readonly call?: { readonly callId: string; readonly turn: number; readonly toolName: string };
    }
  | {
      /** A guardrail's tripwire stopped the run (once per run). */
      readonly type: 'guardrail_tripped';
      readonly runId: string;
      readonly kind: GuardrailKind;
      readonly name: string;
      readonly reason: string;
      readonly call?: { readonly callId: string; readonly turn: number; readonly toolName: string };
    }
  | {
      /** The run continues with another agent: a transfer call of `from` was answered (see `handoffs`). */
      readonly type: 'handoff';
      readonly runId: string;
      /** The turn of the transfer call. */
      readonly turn: number;
      readonly callId: string;
      /** The name of the runner that handed the conversation over. */
      readonly from: string;
      /** The handoff's name: the agent holding the conversation from now on. */
      readonly to: string;
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
