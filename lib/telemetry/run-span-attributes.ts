import type { Attributes, Span } from '@opentelemetry/api';
import { ModelResponse } from '../model/model-types';
import { LlmAgentEvent } from '../runner/runner-events';
import { TELEMETRY_NAMES } from './telemetry-attributes';
import { TelemetryOptions } from './telemetry-options';
import { safeJson } from './telemetry-values';

// The attributes a RunTracker sets on its spans, from the run's events.

/** The answer of a model step on its recording `chat` span: finish reason, tokens, model, and content if recorded. */
export function recordChatResponse(span: Span, response: ModelResponse, options: TelemetryOptions): void {
  const { inputTokens, outputTokens } = response.usage;
  span.setAttributes({
    [TELEMETRY_NAMES.finishReasons]: [response.stopReason],
    [TELEMETRY_NAMES.inputTokens]: inputTokens,
    [TELEMETRY_NAMES.outputTokens]: outputTokens,
  });
  if (response.model !== undefined) {
    span.setAttribute(TELEMETRY_NAMES.responseModel, response.model);
    if (options.requestModel === undefined) span.setAttribute(TELEMETRY_NAMES.requestModel, response.model);
  }
  if (options.recordContent === true)
    span.setAttribute(
      TELEMETRY_NAMES.outputMessages,
      safeJson([{ role: 'assistant', text: response.text, toolCalls: response.toolCalls }]),
    );
}

/** The budgets a run had left when it finished, for its `invoke_agent` span. */
export function runFinishedAttributes(event: Extract<LlmAgentEvent, { type: 'run_finished' }>): Attributes {
  const attributes: Attributes = {};
  const { budgetRemaining, keyBudgetRemaining } = event;
  if (budgetRemaining?.maxCostUsd !== undefined)
    attributes[TELEMETRY_NAMES.budgetRemainingUsd] = budgetRemaining.maxCostUsd;
  if (budgetRemaining?.maxTotalTokens !== undefined)
    attributes[TELEMETRY_NAMES.budgetRemainingTokens] = budgetRemaining.maxTotalTokens;
  if (keyBudgetRemaining?.maxCostUsd !== undefined)
    attributes[TELEMETRY_NAMES.keyBudgetRemainingUsd] = keyBudgetRemaining.maxCostUsd;
  return attributes;
}

/** The attributes an `execute_tool` span starts with: the tool, the call's id and turn. */
export function toolSpanAttributes(event: Extract<LlmAgentEvent, { callId: string; toolName: string }>): Attributes {
  return {
    [TELEMETRY_NAMES.operationName]: 'execute_tool',
    [TELEMETRY_NAMES.toolName]: event.toolName,
    [TELEMETRY_NAMES.toolCallId]: event.callId,
    [TELEMETRY_NAMES.toolCallTurn]: event.turn,
    [TELEMETRY_NAMES.toolType]: 'function',
  };
}
