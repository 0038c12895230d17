import type { Attributes } from '@opentelemetry/api';
import { ToolOutcome } from '../outcome/tool-outcome';
import { ToolOutputProjectionReport } from '../projection/tool-output-projection-result';
import { HeartbeatProgress } from '../providers/tool-invocation';
import { TELEMETRY_NAMES } from './telemetry-attributes';

// The attribute values the run tracker derives from outcomes, errors and reports.

/** The code of a failed outcome, `tool_error` when it names none. */
export function errorCodeOf(outcome: ToolOutcome): string {
  return outcome.error?.code ?? 'tool_error';
}

/** The `error.type` of a thrown value: its `code`, else its class name, else `_OTHER`. */
export function errorTypeOf(error: unknown): string {
  if (typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string')
    return (error as { code: string }).code;
  return error instanceof Error ? error.name : '_OTHER';
}

/** A heartbeat's fraction; its message only when content is recorded (it may quote data). */
export function heartbeatAttributes(
  attempt: number,
  progress: HeartbeatProgress | undefined,
  recordContent: boolean,
): Attributes {
  const attributes: Attributes = { [TELEMETRY_NAMES.attempt]: attempt };
  if (typeof progress?.fraction === 'number') attributes['wuwe.heartbeat.fraction'] = progress.fraction;
  if (recordContent && typeof progress?.message === 'string') attributes['wuwe.heartbeat.message'] = progress.message;
  return attributes;
}

/** The attributes of a truncation report (a report that is not one yields none). */
export function truncationAttributes(report: unknown): Attributes {
  const fields = report as Partial<ToolOutputProjectionReport>;
  const attributes: Attributes = {};
  if (typeof fields.originalBytes === 'number')
    attributes[TELEMETRY_NAMES.projectionOriginalBytes] = fields.originalBytes;
  if (typeof fields.projectedBytes === 'number')
    attributes[TELEMETRY_NAMES.projectionProjectedBytes] = fields.projectedBytes;
  if (typeof fields.trigger === 'string') attributes[TELEMETRY_NAMES.projectionTrigger] = fields.trigger;
  return attributes;
}

/** The JSON text of a value, or a marker when it has none. */
export function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch {
    return '"[unserializable]"';
  }
}
