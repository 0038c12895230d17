export { SYSTEM_CLOCK, sleepOnClock } from './runner-clock';
export type { RunnerClock } from './runner-clock';
export type { LlmAgentEvent, LlmAgentEventType, LlmAgentHookName, ToolCallEventBase } from './runner-events';
export type { MaybePromise } from './maybe-promise';
export type {
  InvokeToolCallOptions,
  LlmAgentRunOptions,
  ToolApprovalDecision,
  ToolCallPermission,
  ToolCallRequest,
} from './run-options';
export type { LlmAgentRunResult, LlmAgentStopReason, ToolCallResult } from './run-result';
export { LlmAgentError } from './runner-error';
export type { LlmAgentErrorCode } from './runner-error';
export { deriveIdempotencyKey } from './tool-call/idempotency-key';
export { runToolAttempt } from './tool-call/run-tool-attempt';
export type { ToolAttemptOptions } from './tool-call/run-tool-attempt';
export type { RunState } from './run-state';
export { DEFAULT_MAX_STEPS } from './run-steps';
export { LlmAgentRunner } from './llm-agent-runner';
export type { Gate, GateStop } from './tool-call/call-gates';
export type { AdmittedCall, DispatchedCall } from './tool-call/call-dispatch';
export type { CompletedCall, ModelProjection } from './tool-call/call-completion';
export type { StepContext } from './tool-call/step-context';
export { RunEventJournal, RunEventJournalError } from './run-event-journal';
export type { JournalEntry, RunEventJournalOptions } from './run-event-journal';
export type { LlmAgentRunStream, LlmAgentStreamEvent, LlmAgentStreamEventType } from './stream/stream-events';
export { DEFAULT_STREAM_BUFFER_POLICY } from './stream/stream-buffer-policy';
export type { StreamBufferPolicy } from './stream/stream-buffer-policy';
export type { LlmAgentRunInput } from './run-input';
export { compileStructuredOutput, DEFAULT_STRUCTURED_OUTPUT_POLICY } from './structured-output/structured-output';
export type {
  CompiledStructuredOutput,
  ParsedOutput,
  StructuredOutputMode,
  StructuredOutputOf,
  StructuredOutputPolicy,
  StructuredOutputSchema,
} from './structured-output/structured-output';
export { StructuredOutputError } from './structured-output/structured-output-error';
export type { StructuredOutputErrorCode } from './structured-output/structured-output-error';
