/** What {@link checkJsonTextShape} found over a limit, if anything. @internal */
export type JsonTextShape = 'ok' | 'maxElements' | 'maxDepth';

/**
 * Whether JSON text holds at most `maxElements` values (every array, object, string, number,
 * boolean and null, the root included), decided before the text is parsed, so that 8 MiB of `[]`
 * never becomes millions of arrays in memory.
 *
 * A value is the root or a member, and the members of a container are its commas plus one when it
 * is not empty, so the text holds `1 + commas + non-empty containers` values. A quick count of every
 * `,`, `[` and `{` (in strings too) bounds that from above and settles most texts with native
 * searches; only a text over the limit by that bound is scanned exactly, skipping string contents,
 * and that scan reports nesting deeper than `maxDepth` first, as the walk would. Text that is not
 * JSON gives a meaningless count; `JSON.parse` refuses it afterwards when the count lets it through.
 * @internal
 */
export function checkJsonTextShape(text: string, maxElements: number, maxDepth: number): JsonTextShape {
  if (text.length <= maxElements || quickBound(text, maxElements) <= maxElements) return 'ok';
  return exactScan(text, maxElements, maxDepth);
}

/** `1 + ,-count + [-count + {-count`, stopping once it passes `limit`. */
function quickBound(text: string, limit: number): number {
  let count = 1;
  for (const mark of [',', '[', '{'])
    for (let at = text.indexOf(mark); at !== -1 && count <= limit; at = text.indexOf(mark, at + 1)) count++;
  return count;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACKET = 0x5d;
const CLOSE_BRACE = 0x7d;

/** The exact value count and depth of JSON text (strings skipped), stopping at the first limit passed. */
function exactScan(text: string, maxElements: number, maxDepth: number): JsonTextShape {
  let count = 1;
  let depth = 0;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === QUOTE) at = closingQuote(text, at);
    else if (code === COMMA) count++;
    else if (code === CLOSE_BRACKET || code === CLOSE_BRACE) depth--;
    else if (code === OPEN_BRACKET || code === OPEN_BRACE) {
      if (++depth > maxDepth) return 'maxDepth';
      const next = nextNonSpace(text, at + 1);
      const following = text.charCodeAt(next);
      if (following !== CLOSE_BRACKET && following !== CLOSE_BRACE) count++;
      at = next - 1;
    }
    if (count > maxElements) return 'maxElements';
  }
  return 'ok';
}

/** Index of the quote closing the string opened at `open` (the text length when there is none). */
function closingQuote(text: string, open: number): number {
  for (let at = text.indexOf('"', open + 1); at !== -1; at = text.indexOf('"', at + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
  return text.length;
}

function nextNonSpace(text: string, from: number): number {
  let at = from;
  while (at < text.length) {
    const code = text.charCodeAt(at);
    if (code !== 0x20 && code !== 0x0a && code !== 0x0d && code !== 0x09) break;
    at++;
  }
  return at;
}
