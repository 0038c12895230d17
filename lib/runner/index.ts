/**
 * `wuwe/runner`: what a subclass of `LlmAgentRunner` and a host of its hooks, events and streams needs:
 * the state of a run in progress, the gates and call stages the protected steps take and return, the clock,
 * the event journal, idempotency keys, and the policies of streams and structured output.
 * @packageDocumentation
 */
export { SYSTEM_CLOCK } from './runner-clock';
export type { RunnerClock } from './runner-clock';
export type {
  AgentCallLink,
  ChildAgentEvent,
  LlmAgentEventType,
  LlmAgentHookName,
  LlmAgentOwnEvent,
  ToolCallEventBase,
} from './runner-events';
export type { MaybePromise } from './maybe-promise';
export { deriveIdempotencyKey } from './tool-call/idempotency-key';
export type { RunInProgress } from './run-state';
export type { Gate, GateStop } from './tool-call/call-gates';
export type { AdmittedCall, DispatchedCall } from './tool-call/call-dispatch';
export type { CompletedCall, ModelProjection } from './tool-call/call-completion';
export { RunEventJournal, RunEventJournalError } from './run-event-journal';
export type { JournalEntry, RunEventJournalOptions } from './run-event-journal';
export type { LlmAgentStreamEventType } from './stream/stream-events';
export { DEFAULT_STREAM_BUFFER_POLICY } from './stream/stream-buffer-policy';
export type { StreamBufferPolicy } from './stream/stream-buffer-policy';
export { DEFAULT_KEEP_RUN_EVENTS_POLICY } from './stream/keep-events-policy';
export type { KeepRunEventsPolicy } from './stream/keep-events-policy';
export { DEFAULT_STRUCTURED_OUTPUT_POLICY } from './structured-output/structured-output';
export type {
  StructuredOutputMode,
  StructuredOutputOf,
  StructuredOutputPolicy,
  StructuredOutputSchema,
} from './structured-output/structured-output';
export { hasToolCall, stepCountIs } from './run-control/stop-conditions';
export type { StopCondition, StopConditionState } from './run-control/stop-conditions';
export type { PrepareStep, PreparedStep, StepPreparationInput, ToolChoice } from './run-control/tool-control';
export type {
  BudgetExhaustion,
  BudgetLimitName,
  BudgetRemaining,
  BudgetReport,
  BudgetSpent,
  KeyBudgetReport,
  ModelPrice,
  ModelPriceTable,
  RunBudget,
} from './run-control/budget/run-budget';
export { guardrail } from './run-control/guardrails/guardrail-types';
export type {
  Guardrail,
  GuardrailContextBase,
  GuardrailDecision,
  GuardrailFunction,
  GuardrailKind,
  GuardrailVerdict,
  InputGuardrail,
  InputGuardrailContext,
  NamedGuardrail,
  OutputGuardrail,
  OutputGuardrailContext,
  OutputRunOptions,
  ToolAfterGuardrailContext,
  ToolBeforeGuardrailContext,
  ToolGuardrailMap,
  ToolGuardrails,
} from './run-control/guardrails/guardrail-types';
export { guardrailNoticeOf } from './run-control/guardrails/guardrail-stop';
export type { GuardrailNotice, GuardrailNoticeCode } from './run-control/guardrails/guardrail-stop';
export type { LlmAgentRunnerOptions } from './runner-options';
