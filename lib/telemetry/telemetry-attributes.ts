/**
 * Attribute, span, event and metric names wuwe/telemetry records. `gen_ai.*` and `error.type` follow
 * the OpenTelemetry GenAI semantic conventions; `wuwe.*` carry the Tool Contract.
 */
export const TELEMETRY_NAMES = {
  operationName: 'gen_ai.operation.name',
  agentName: 'gen_ai.agent.name',
  conversationId: 'gen_ai.conversation.id',
  providerName: 'gen_ai.provider.name',
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  finishReasons: 'gen_ai.response.finish_reasons',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  outputMessages: 'gen_ai.output.messages',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  /** The turn of the call: with the call id it identifies the call in its run. */
  toolCallTurn: 'wuwe.tool.call.turn',
  toolType: 'gen_ai.tool.type',
  toolArguments: 'gen_ai.tool.call.arguments',
  toolResult: 'gen_ai.tool.call.result',
  tokenType: 'gen_ai.token.type',
  errorType: 'error.type',
  runId: 'wuwe.run.id',
  stopReason: 'wuwe.run.stop_reason',
  steps: 'wuwe.run.steps',
  /** The limit that stopped the run (`budget_exhausted`), e.g. `maxCostUsd`. */
  budgetTripped: 'wuwe.budget.tripped',
  /** The budget key whose limit stopped the run, or the run's budget key. */
  budgetKey: 'wuwe.budget.key',
  /** What the run's `budget.maxCostUsd` still allows when it finished. */
  budgetRemainingUsd: 'wuwe.budget.remaining_usd',
  /** What the run's `budget.maxTotalTokens` still allows when it finished. */
  budgetRemainingTokens: 'wuwe.budget.remaining_tokens',
  /** What the budget key's `maxCostUsd` still allows, as the run last saw it. */
  keyBudgetRemainingUsd: 'wuwe.budget.key.remaining_usd',
  step: 'wuwe.model.step',
  sideEffect: 'wuwe.tool.side_effect',
  idempotency: 'wuwe.tool.idempotency',
  attempts: 'wuwe.tool.attempts',
  attempt: 'wuwe.tool.attempt',
  refused: 'wuwe.tool.refused',
  approvalDecision: 'wuwe.approval.decision',
  approvalReason: 'wuwe.approval.reason',
  projectionTruncated: 'wuwe.projection.truncated',
  projectionTrigger: 'wuwe.projection.trigger',
  projectionOriginalBytes: 'wuwe.projection.original_bytes',
  projectionProjectedBytes: 'wuwe.projection.projected_bytes',
  projectionOriginalTokens: 'wuwe.projection.original_tokens',
  projectionProjectedTokens: 'wuwe.projection.projected_tokens',
  /** The runner event type of a call event counted by `wuwe.tool.late_events`. */
  event: 'wuwe.event',
} as const;

/** Span event names (attempts, retries, heartbeats, timeouts, truncations and the other call events). */
export const TELEMETRY_EVENTS = {
  attempt: 'wuwe.tool.attempt',
  retry: 'wuwe.tool.retry',
  heartbeat: 'wuwe.tool.heartbeat',
  timeout: 'wuwe.tool.timeout',
  lateResult: 'wuwe.tool.late_result_discarded',
  truncated: 'wuwe.tool.output_truncated',
  approvalRequested: 'wuwe.approval.requested',
  approvalDecided: 'wuwe.approval.decided',
  compensation: 'wuwe.tool.compensation',
  validationWarning: 'wuwe.tool.output_validation_warning',
  hookFailed: 'wuwe.hook_failed',
} as const;

/** Metric instrument names. */
export const TELEMETRY_METRICS = {
  toolDuration: 'wuwe.tool.call.duration',
  retries: 'wuwe.tool.retries',
  timeouts: 'wuwe.tool.timeouts',
  truncations: 'wuwe.tool.truncations',
  tokens: 'wuwe.model.token.usage',
  lateEvents: 'wuwe.tool.late_events',
} as const;
