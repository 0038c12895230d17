import type { Attributes } from '@opentelemetry/api';
import { ModelResponse } from '../model/model-types';
import { LlmAgentEvent } from '../runner/runner-events';
import { TELEMETRY_NAMES } from './telemetry-attributes';
import { TelemetryInstruments } from './telemetry-instruments';
import { errorCodeOf } from './telemetry-values';

// The metrics a RunTracker counts: whether or not the trace is sampled.

/** The counts of a call's event: a retry, a timeout or a truncation, by tool. */
export function countToolEvent(instruments: TelemetryInstruments, event: LlmAgentEvent): void {
  if (event.type === 'tool_retry')
    instruments.retries.add(1, {
      [TELEMETRY_NAMES.toolName]: event.toolName,
      [TELEMETRY_NAMES.errorType]: errorCodeOf(event.failure),
    });
  else if (event.type === 'tool_timeout')
    instruments.timeouts.add(1, { [TELEMETRY_NAMES.toolName]: event.toolName, 'wuwe.timeout.limit': event.limit });
  else if (event.type === 'tool_output_truncated')
    instruments.truncations.add(1, { [TELEMETRY_NAMES.toolName]: event.toolName });
}

/** The call's duration metric, by tool and outcome code. */
export function recordToolDuration(
  instruments: TelemetryInstruments,
  event: Extract<LlmAgentEvent, { type: 'tool_call_finished' }>,
): void {
  const errorType = event.outcome.ok ? undefined : errorCodeOf(event.outcome);
  const metricAttributes: Attributes =
    errorType === undefined
      ? { [TELEMETRY_NAMES.toolName]: event.toolName }
      : { [TELEMETRY_NAMES.toolName]: event.toolName, [TELEMETRY_NAMES.errorType]: errorType };
  instruments.toolDuration.record(event.durationMs / 1000, metricAttributes);
}

/** The input and output tokens of a model response, by type and the response's model. */
export function countTokens(instruments: TelemetryInstruments, response: ModelResponse): void {
  const { inputTokens, outputTokens } = response.usage;
  const { tokens } = instruments;
  tokens.add(inputTokens, tokenAttributes('input', response.model));
  tokens.add(outputTokens, tokenAttributes('output', response.model));
}

/**
 * The attributes of a token count: its type and the response's model. Assigned one by one: on Node 20 an object
 * literal that spreads another and adds a computed key costs microseconds, once per model step.
 */
function tokenAttributes(type: 'input' | 'output', model: string | undefined): Attributes {
  const attributes: Attributes = {};
  if (model !== undefined) attributes[TELEMETRY_NAMES.responseModel] = model;
  attributes[TELEMETRY_NAMES.tokenType] = type;
  return attributes;
}
