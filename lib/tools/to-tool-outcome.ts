import { isToolOutcome, normalizeToolOutcome, toolData, toolFailure, toolText, ToolOutcome } from '../outcome/tool-outcome';
import { JsonValue } from '../outcome/json-value';
import { guardJsonValue } from '../validation/guard-json-value';
import { ToolArgumentError, formatIssues } from './tool-argument-error';
import { ToolFailureError } from './tool-failure-error';

const RESULT_LIMITS = { maxDepth: 256, maxBytes: Number.MAX_SAFE_INTEGER };

/**
 * Serializes what a tool returned: a string is a text success, `undefined` an empty text success,
 * an outcome-shaped object is taken as is, any other JSON value (or an object with `toJSON`) is a
 * structured success. Something that is not JSON (a BigInt, a cycle, a function) is a `tool_error` failure.
 */
export function toToolOutcome(value: unknown): ToolOutcome {
  if (typeof value === 'string') return toolText(value);
  if (value === undefined) return toolText('');
  if (isToolOutcome(value)) return normalizeToolOutcome(value);
  const guarded = guardJsonValue(value, RESULT_LIMITS);
  if (guarded.ok) return toolData(guarded.value as JsonValue);
  try {
    const roundTripped = JSON.parse(JSON.stringify(value)) as unknown;
    const again = guardJsonValue(roundTripped, RESULT_LIMITS);
    if (again.ok) return toolData(again.value as JsonValue);
    return toolFailure({ code: 'tool_error', category: 'internal', message: `tool returned a value that is not JSON: ${formatIssues(again.issues)}` });
  } catch (error) {
    return toolFailure({ code: 'tool_error', category: 'internal', message: `tool returned a value that is not JSON: ${messageOf(error)}` });
  }
}

/** Turns anything a tool threw into a failure outcome, keeping the message. */
export function thrownToToolOutcome(error: unknown): ToolOutcome {
  if (error instanceof ToolFailureError) return error.outcome;
  if (error instanceof ToolArgumentError)
    return toolFailure({ code: error.code, category: 'validation', message: error.message, details: { issues: error.issues.map((issue) => ({ ...issue })) } });
  return toolFailure({ code: 'tool_error', category: 'internal', retryable: false, message: messageOf(error) });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
