/**
 * The scan behind the fallback estimator (see `FallbackTextTokenEstimator`): the pieces of a text
 * read as UTF-8 bytes, so one loop over a `Uint8Array` replaces a `charCodeAt` loop (whose optimized
 * code ran about 3x slower once it had seen strings of several representations: ropes, slices,
 * two-byte) and every non-ASCII byte is simply one token.
 */

/** The byte that ends the text in the buffer {@link countUtf8Pieces} reads; UTF-8 never contains it. */
export const END_OF_TEXT = 0xff;

/**
 * Classes of bytes: one token each (punctuation, control, non-ASCII), digit, white space, the end. Letters are {@link
 * LETTER} and up.
 */
const ONE_TOKEN = 0;
const DIGIT = 1;
const WHITE = 2;
const END = 3;
/** An ASCII letter is `LETTER` with its traits: a consonant, upper case, a letter past `f` (not hex). */
const LETTER = 8;
const CONSONANT = 1;
const UPPER = 2;
const NON_HEX = 4;
const SPACE = 0x20;

/** Class (and, for a letter, traits) of every byte value. */
const CLASSES = new Uint8Array(256).fill(ONE_TOKEN);
CLASSES.fill(DIGIT, 0x30, 0x3a);
for (const code of [0x20, 0x09, 0x0a, 0x0d]) CLASSES[code] = WHITE;
for (let lower = 0x61; lower <= 0x7a; lower++) {
  const traits = LETTER | ('aeiou'.includes(String.fromCharCode(lower)) ? 0 : CONSONANT) | (lower > 0x66 ? NON_HEX : 0);
  CLASSES[lower] = traits;
  CLASSES[lower - 0x20] = traits | UPPER;
}
CLASSES[END_OF_TEXT] = END;

/**
 * Tokens charged to the UTF-8 text in `bytes` from index 1 up to the first {@link END_OF_TEXT} byte
 * (which must be there), by the rules of `FallbackTextTokenEstimator`. `bytes[0]` is the last byte
 * of what precedes the text (a space at its start) and `after` the first byte of what follows it
 * (0 at its end; a NUL counts as the end): with both, the counts of consecutive parts cut between
 * two pieces add up to the count of the whole (see {@link separatesPieces}). A non-ASCII character
 * is as many tokens as it has bytes (a lone surrogate, encoded as U+FFFD, three). Each loop reads
 * one byte and its class per step and stops at the end byte, with no bounds test of its own; a
 * letter run is scored without branches per letter.
 */
export function countUtf8Pieces(bytes: Uint8Array, after: number): number {
  let tokens = 0;
  let at = 1;
  let kind = CLASSES[bytes[1]];
  for (;;) {
    if (kind >= LETTER) {
      const before = bytes[at - 1];
      const from = at;
      let humps = 0;
      let consonants = 0;
      let cluster = 0;
      let longestCluster = 0;
      let traits = 0;
      // Upper case after lower case is a hump; the first letter follows no lower-case letter.
      let previous = UPPER;
      do {
        humps += ((kind & ~previous) >> 1) & 1;
        previous = kind;
        const consonant = kind & CONSONANT;
        consonants += consonant;
        cluster = (cluster + 1) & -consonant;
        longestCluster = cluster > longestCluster ? cluster : longestCluster;
        traits |= kind;
        kind = CLASSES[bytes[++at]];
      } while (kind >= LETTER);
      const length = at - from;
      if (
        (traits & NON_HEX) === 0 ||
        humps > 2 ||
        joinsRandomRun(before) ||
        joinsRandomRun(kind === END ? after : bytes[at])
      )
        tokens += length;
      else {
        let charge = 1 + ((length / 6) | 0);
        // Length less twice the vowels.
        const unvoiced = 2 * consonants - length;
        if (unvoiced > charge) charge = unvoiced;
        if (longestCluster > charge) charge = longestCluster;
        tokens += charge + humps;
      }
    } else if (kind === ONE_TOKEN) {
      const from = at;
      do kind = CLASSES[bytes[++at]];
      while (kind === ONE_TOKEN);
      tokens += at - from;
    } else if (kind === WHITE) {
      const first = bytes[at];
      const from = at;
      do kind = CLASSES[bytes[++at]];
      while (kind === WHITE);
      const length = at - from;
      // What follows; a NUL counts as the end of the text.
      const next = kind === END ? after : bytes[at];
      const joinsNext = next > SPACE && next < 0x80 && (next < 0x30 || next > 0x39);
      if (length !== 1 || first !== SPACE || !joinsNext)
        tokens += 1 + (length >> 3) + (length > 1 && next !== 0 && !joinsNext ? 1 : 0);
    } else if (kind === DIGIT) {
      const from = at;
      do kind = CLASSES[bytes[++at]];
      while (kind === DIGIT);
      tokens += ((at - from + 2) / 3) | 0;
    } else return tokens;
  }
}

/**
 * True when UTF-16 code units `last` and `next`, one after the other, are in different pieces (not
 * two letters, two digits, two white space characters, nor a high and a low surrogate), so a text
 * cut between them can be counted in parts.
 */
export function separatesPieces(last: number, next: number): boolean {
  if (last >= 0x80) return last < 0xd800 || last > 0xdbff || (next & 0xfc00) !== 0xdc00;
  const kind = CLASSES[last];
  return next >= 0x80 || (kind === ONE_TOKEN ? true : kind >= LETTER ? CLASSES[next] < LETTER : CLASSES[next] !== kind);
}

/** A digit, `+`, `/` or `=`: letters touching one are part of an id, a hash or base64. */
function joinsRandomRun(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || code === 0x2b || code === 0x2f || code === 0x3d;
}
