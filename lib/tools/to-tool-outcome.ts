import { mergeOwn } from '../outcome/merge-own';
import {
  isToolOutcome,
  normalizeToolOutcome,
  toolData,
  toolFailure,
  toolText,
  ToolOutcome,
} from '../outcome/tool-outcome';
import { TOOL_ERROR_CATEGORIES } from '../outcome/error-codes';
import { JsonValue } from '../outcome/json-value';
import { toolImagesProblem } from '../outcome/tool-image';
import { messageOf } from '../errors/message-of';
import { copyPlainJson, guardJsonValue } from '../validation/guard-json-value';
import { ToolArgumentError, formatIssues } from './tool-argument-error';
import { ToolFailureError } from './tool-failure-error';

/** The deepest a tool's result may nest (arrays and objects): deeper is a `tool_error`. @internal */
export const MAX_RESULT_DEPTH = 256;

const RESULT_LIMITS = {
  maxDepth: MAX_RESULT_DEPTH,
  maxBytes: Number.MAX_SAFE_INTEGER,
  maxElements: Number.MAX_SAFE_INTEGER,
};

/**
 * Serializes what a tool returned. The rule: a tool returns a string (a text success), a JSON value
 * (a structured success; objects with `toJSON`, such as a Date, count as their JSON form), or a
 * ToolOutcome; `undefined` is an empty text success. Anything else is a `tool_error` failure that
 * says the tool returned something that is not JSON: a BigInt, a cycle, a function, NaN or Infinity,
 * a Map, Set or class instance without `toJSON`. An outcome-shaped object whose fields break the {@link ToolOutcome}
 * type (a `text` that
 * is not a string, an unknown error category, a non-boolean `retryable`, `data` that is not JSON)
 * is a `tool_error` failure too, naming each problem and keeping the tool's own error message (so are
 * malformed `images`: not PNG, JPEG, GIF or WebP, not base64, other keys, see `toolImagesProblem`);
 * `data` and `details` with `toJSON` (a Date) are serialized. Never throws: a value whose getter or
 * proxy trap throws while it is read is a `tool_error` failure.
 */
export function toToolOutcome(value: unknown): ToolOutcome {
  const made = lastMade;
  lastMade = undefined;
  // Made by the conversion just before (a reflected tool's result, converted again by the runner's attempt).
  if (value === made && made !== undefined) return made;
  if (typeof value === 'string') return toolText(value);
  if (value === undefined) return toolText('');
  try {
    if (isToolOutcome(value)) return checkedOutcome(normalizeToolOutcome(value));
    // Plain JSON (the usual result) is checked and copied in one walk; anything else is walked again to say why.
    const plain = copyPlainJson(value, RESULT_LIMITS.maxDepth);
    if (plain !== undefined) return (lastMade = { ok: true, data: plain as JsonValue });
    const json = toJsonValue(value);
    if (json.ok) return (lastMade = toolData(json.value));
    return toolFailure({
      code: 'tool_error',
      category: 'internal',
      message: `tool returned a value that is not JSON: ${json.reason}`,
    });
  } catch (error) {
    // A getter or a proxy trap of the returned value threw while it was read: never let that escape,
    // a caller settling a call on this result would otherwise never settle it.
    return toolFailure({
      code: 'tool_error',
      category: 'internal',
      message: `tool returned a value that could not be read: ${messageOf(error)}`,
    });
  }
}

/**
 * The structured success the conversion just before built from a plain value: a fresh object
 * around a fresh copy of the value, so converting it again (next) would find it as it is. Any
 * conversion empties the slot: a conversion in between only means the check runs again.
 */
let lastMade: ToolOutcome | undefined;

type JsonConversion =
  { readonly ok: true; readonly value: JsonValue } | { readonly ok: false; readonly reason: string };

/** The value itself when it is plain JSON, else its `JSON.stringify` form when that is JSON, else why not. */
function toJsonValue(value: unknown, copy = true): JsonConversion {
  const guarded = guardJsonValue(value, RESULT_LIMITS, { copy });
  if (guarded.ok) return { ok: true, value: guarded.value as JsonValue };
  try {
    const text = JSON.stringify(value, refuseLossyJson) as string | undefined;
    if (text === undefined) return { ok: false, reason: `${typeof value} has no JSON form` };
    const again = guardJsonValue(JSON.parse(text), RESULT_LIMITS, { copy: false });
    if (again.ok) return { ok: true, value: again.value as JsonValue };
    return { ok: false, reason: formatIssues(again.issues) };
  } catch (error) {
    return { ok: false, reason: messageOf(error) };
  }
}

/**
 * A `JSON.stringify` replacer (it sees each value after its `toJSON`) that throws where JSON would
 * silently change the value: a non-finite number (would become `null`), a Map, Set or class
 * instance without `toJSON` (would become `{}` or lose its prototype), a function or symbol (would
 * vanish), `undefined` in an array (would become `null`). `undefined` object members are dropped, as in JSON.
 */
function refuseLossyJson(this: unknown, key: string, value: unknown): unknown {
  const where = key === '' ? 'the value' : `'${key}'`;
  if (typeof value === 'number' && !Number.isFinite(value))
    throw new TypeError(`${where} is ${value}, not a finite number`);
  if (typeof value === 'function' || typeof value === 'symbol') throw new TypeError(`${where} is a ${typeof value}`);
  if (value === undefined && Array.isArray(this)) throw new TypeError(`${where} is undefined in an array`);
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const prototype: unknown = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null)
      throw new TypeError(
        `${where} is a ${(value as { constructor?: { name?: string } }).constructor?.name ?? 'class instance'} without toJSON`,
      );
  }
  return value;
}

const COMPENSATION_STATES: readonly unknown[] = ['none', 'required', 'completed', 'failed'];

/**
 * The outcome when its fields have their declared types (JSON-serializing `data` and `details`), else a `tool_error`
 * failure.
 */
function checkedOutcome(outcome: ToolOutcome): ToolOutcome {
  const problems: string[] = [];
  let checked = outcome;
  const convert = (field: 'data' | 'details', value: unknown): JsonValue | undefined => {
    if (value === undefined) return undefined;
    const json = toJsonValue(value, false);
    if (!json.ok) problems.push(`${field} is not JSON: ${json.reason}`);
    return json.ok ? json.value : undefined;
  };
  if (outcome.text !== undefined && typeof outcome.text !== 'string') problems.push('text must be a string');
  const data = convert('data', outcome.data);
  if (data !== outcome.data) checked = mergeOwn(checked, { data });
  const version: unknown = outcome.resourceVersion;
  if (
    version !== undefined &&
    typeof version !== 'string' &&
    !(typeof version === 'number' && Number.isFinite(version))
  )
    problems.push('resourceVersion must be a string or a finite number');
  if (outcome.compensation !== undefined && !COMPENSATION_STATES.includes(outcome.compensation))
    problems.push(`compensation must be one of ${COMPENSATION_STATES.join(', ')}`);
  if (outcome.artifacts !== undefined && !Array.isArray(outcome.artifacts)) problems.push('artifacts must be an array');
  const imagesProblem = outcome.images === undefined ? undefined : toolImagesProblem(outcome.images);
  if (imagesProblem !== undefined) problems.push(imagesProblem);
  // A copy of the checked images: the tool cannot change them after the check.
  else if (outcome.images !== undefined)
    checked = mergeOwn(checked, { images: outcome.images.map(({ mediaType, data }) => ({ mediaType, data })) });
  const metadata: unknown = outcome.metadata;
  if (
    metadata !== undefined &&
    (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata) || !toJsonValue(metadata, false).ok)
  )
    problems.push('metadata must be a JSON object');
  const error = outcome.ok ? undefined : outcome.error;
  if (error !== undefined && !checked.ok) {
    if (!(TOOL_ERROR_CATEGORIES as readonly unknown[]).includes(error.category))
      problems.push(`error.category '${String(error.category)}' is not one of ${TOOL_ERROR_CATEGORIES.join(', ')}`);
    if (typeof error.retryable !== 'boolean') problems.push('error.retryable must be a boolean');
    const details = convert('details', error.details);
    if (details !== error.details) checked = mergeOwn(checked, { ok: false, error: { ...error, details } });
  }
  if (problems.length === 0) return checked;
  const original = error === undefined ? '' : ` (its error was '${error.code}': ${error.message})`;
  return toolFailure({
    code: 'tool_error',
    category: 'internal',
    message: `tool returned a malformed outcome: ${problems.join('; ')}${original}`,
  });
}

/** Turns anything a tool threw into a failure outcome, keeping the message. Never throws. */
export function thrownToToolOutcome(error: unknown): ToolOutcome {
  if (ToolFailureError.isInstance(error)) return error.outcome;
  if (ToolArgumentError.isInstance(error))
    return toolFailure({
      code: error.code,
      category: 'validation',
      message: error.message,
      details: { issues: error.issues.map((issue) => ({ ...issue })) },
    });
  return toolFailure({ code: 'tool_error', category: 'internal', retryable: false, message: messageOf(error) });
}
