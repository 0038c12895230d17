import { JsonObject } from '../outcome/json-value';
import { ArgumentLimits, DEFAULT_ARGUMENT_LIMITS, maxElementsOf } from './argument-limits';
import { GuardResult, guardJsonValue } from './guard-json-value';
import { checkJsonTextShape } from './json-text-elements';
import { jsonTextPassesGuard } from './json-text-precheck';
import { ValidationIssue } from './validation-issue';
import { messageOf } from '../errors/message-of';

/** Why arguments were refused: not JSON at all, or JSON that breaks the rules. */
export type ArgumentRejectionCode = 'invalid_json' | 'invalid_arguments';

/** Result of {@link decodeToolArguments}. */
export type DecodedArguments =
  | { readonly ok: true; readonly value: JsonObject }
  | { readonly ok: false; readonly code: ArgumentRejectionCode; readonly issues: readonly ValidationIssue[] };

/**
 * Turns model argument text or an object into a fresh, guarded JSON object. Text that is not JSON
 * is refused (`invalid_json`), never repaired into `{}`. The UTF-8 size and the number of values
 * are checked on text before it is parsed, on an object as it is walked (see {@link ArgumentLimits});
 * the depth before anything else walks the value (see {@link guardJsonValue}); text that certainly
 * passes those checks is not walked at all (see {@link jsonTextPassesGuard}). The result must be an object.
 */
export function decodeToolArguments(
  input: unknown,
  limits: ArgumentLimits = DEFAULT_ARGUMENT_LIMITS,
): DecodedArguments {
  let parsed: unknown = input;
  const isText = typeof input === 'string';
  if (isText) {
    // A UTF-16 code unit is at most 3 UTF-8 bytes: count bytes only when the length alone cannot decide.
    if (
      input.length > limits.maxBytes ||
      (input.length * 3 > limits.maxBytes && Buffer.byteLength(input, 'utf8') > limits.maxBytes)
    )
      return {
        ok: false,
        code: 'invalid_arguments',
        issues: [{ pointer: '', message: `arguments exceed ${limits.maxBytes} bytes`, keyword: 'maxBytes' }],
      };
    const maxElements = maxElementsOf(limits);
    const shape = checkJsonTextShape(input, maxElements, limits.maxDepth);
    if (shape === 'maxElements')
      return {
        ok: false,
        code: 'invalid_arguments',
        issues: [{ pointer: '', message: `arguments hold more than ${maxElements} values`, keyword: 'maxElements' }],
      };
    if (shape === 'maxDepth')
      return {
        ok: false,
        code: 'invalid_arguments',
        issues: [{ pointer: '', message: `nesting deeper than ${limits.maxDepth} levels`, keyword: 'maxDepth' }],
      };
    try {
      parsed = JSON.parse(input);
    } catch (error) {
      const reason = messageOf(error);
      return {
        ok: false,
        code: 'invalid_json',
        issues: [{ pointer: '', message: `arguments are not valid JSON: ${reason}`, keyword: 'json' }],
      };
    }
  }
  if (isText && jsonTextPassesGuard(input, limits)) return objectOnly(parsed);
  let guarded: GuardResult;
  try {
    // The fresh output of JSON.parse is checked in place, its size already known; any other value is measured and
    // copied.
    guarded = guardJsonValue(parsed, limits, { copy: !isText, sizeChecked: isText });
  } catch (error) {
    // A getter or a proxy trap threw while the value was read.
    const reason = messageOf(error);
    return {
      ok: false,
      code: 'invalid_arguments',
      issues: [{ pointer: '', message: `arguments could not be read: ${reason}`, keyword: 'json' }],
    };
  }
  if (!guarded.ok) return { ok: false, code: 'invalid_arguments', issues: guarded.issues };
  return objectOnly(guarded.value);
}

function objectOnly(value: unknown): DecodedArguments {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return {
      ok: false,
      code: 'invalid_arguments',
      issues: [{ pointer: '', message: 'arguments must be a JSON object', keyword: 'type' }],
    };
  return { ok: true, value: value as JsonObject };
}
