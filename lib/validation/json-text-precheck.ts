import { ArgumentLimits } from './argument-limits';

/** A `\u` escape or a forbidden key word: the walk decides. */
const ESCAPE_OR_FORBIDDEN_WORD = /\\u|__proto__|constructor|prototype/;
/** An exponent of 3 digits or more, or a run of 200 digits: the only ways a JSON number can overflow to Infinity. */
const LONG_EXPONENT = /[eE][+-]?\d{3}/;
const LONG_DIGIT_RUN = /\d{200}/;

/**
 * True when JSON text, once parsed, is certain to pass every check of `guardJsonValue`, decided on
 * the text alone. Conservative: `false` means "walk the parsed value", never "invalid". Why each
 * check holds when this returns `true`:
 *
 * - size: the parsed strings and keys together are no longer than the text;
 * - depth: a value nests no deeper than the number of `{` and `[` in its text;
 * - lone surrogates: without `\u` escapes a parsed string is a slice of the text with some ASCII
 *   escapes replaced, so it is well-formed when the text is;
 * - forbidden keys: escapes other than `\u` only yield `"`, `\`, `/` and control characters, so a
 *   key equal to `__proto__`, `constructor` or `prototype` appears verbatim in the text;
 * - non-finite numbers: with fewer than 200 integer digits and an exponent below 100 a number stays
 *   under 1e299;
 * - non-JSON values: `JSON.parse` makes only plain objects, arrays, strings, numbers, booleans and null.
 */
export function jsonTextPassesGuard(text: string, limits: ArgumentLimits): boolean {
  return (
    text.length <= limits.maxBytes &&
    text.isWellFormed() &&
    !ESCAPE_OR_FORBIDDEN_WORD.test(text) &&
    !LONG_EXPONENT.test(text) &&
    (text.length < 200 || !LONG_DIGIT_RUN.test(text)) &&
    containerCountAtMost(text, limits.maxDepth)
  );
}

function containerCountAtMost(text: string, limit: number): boolean {
  if (text.length <= limit) return true;
  let count = 0;
  for (let at = text.indexOf('{'); at !== -1; at = text.indexOf('{', at + 1)) if (++count > limit) return false;
  for (let at = text.indexOf('['); at !== -1; at = text.indexOf('[', at + 1)) if (++count > limit) return false;
  return true;
}
