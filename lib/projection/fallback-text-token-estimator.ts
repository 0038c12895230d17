import { TextTokenEstimator } from './text-token-estimator';

/**
 * The fallback estimator, used when no tokenizer is injected: an upper bound of the `o200k_base`
 * and `cl100k_base` tokenizers on typical tool output, checked against both on generated corpora of
 * English prose, compact and pretty JSON, logs with ids and timestamps, source code, hex, base64,
 * digit runs, punctuation, CJK and emoji sequences. It over-counts English prose and JSON about 2x.
 *
 * One pass over the text splits it the way those tokenizers pre-split it and charges each piece:
 *
 * - a run of ASCII letters: one token per 6 letters plus one, at least its longest consonant
 *   cluster and its length less twice its vowels (random letters cost more than words); a run that
 *   looks random costs one token per letter: only the letters a-f (hex), more than two humps of
 *   camel case, or touching a digit, `+`, `/` or `=` (base64, ids);
 * - a run of digits: one token per three digits;
 * - white space: a single space before a letter or punctuation is free (it joins the next token),
 *   any other run costs one token per 8 characters plus one, and one more before a digit or a
 *   non-ASCII character;
 * - every other ASCII character (punctuation): one token;
 * - a non-ASCII character: one token per UTF-8 byte (2 to 4), the most byte-level tokenizers can use;
 * - two more tokens per non-empty text, for the short pieces a tokenizer cannot merge.
 *
 * Cost: one JavaScript loop over the UTF-16 code units, about 1 ns each. For text much larger
 * than what is sent, `estimateLargeTextTokens` samples instead of reading everything.
 */
export class FallbackTextTokenEstimator implements TextTokenEstimator {
  /** Estimated tokens of `text`, never fewer than `o200k_base` or `cl100k_base` count on typical tool output. */
  estimateTokens(text: string): number {
    return text.length === 0 ? 0 : countPieces(text, 0, text.length) + SLACK;
  }
}

/** The shared instance of {@link FallbackTextTokenEstimator}; the default estimator of every projection. */
export const fallbackTextTokenEstimator: FallbackTextTokenEstimator = Object.freeze(new FallbackTextTokenEstimator());

const SLACK = 2;
const SAMPLE_WINDOWS = 32;
const WINDOW_UNITS = 512;

/**
 * Tokens of a text too large to be sent whole, estimated by the fallback from 32 evenly spaced
 * windows of 512 code units (16 Ki code units read at most, about what one preview costs to score):
 * their tokens per code unit, times the length, plus 10%. Exact for shorter text. Not a bound for text whose parts differ (prose in the samples,
 * base64 between them): the projection uses it only for the size it reports of an original it
 * truncates anyway, never for what it sends.
 */
export function estimateLargeTextTokens(text: string): number {
  if (text.length <= SAMPLE_WINDOWS * WINDOW_UNITS * 2) return fallbackTextTokenEstimator.estimateTokens(text);
  const stride = Math.floor((text.length - WINDOW_UNITS) / (SAMPLE_WINDOWS - 1));
  let sampled = 0;
  for (let window = 0; window < SAMPLE_WINDOWS; window++) {
    const start = window * stride;
    sampled += countPieces(text, start, start + WINDOW_UNITS);
  }
  return Math.ceil(((sampled / (SAMPLE_WINDOWS * WINDOW_UNITS)) * text.length) * 1.1) + SLACK;
}

/** Tokens charged to `text[start..end)` (see {@link FallbackTextTokenEstimator}). Classes and letter traits come from tables, and a letter run is scored without branches per letter. */
function countPieces(text: string, start: number, end: number): number {
  let tokens = 0;
  let at = start;
  while (at < end) {
    const code = text.charCodeAt(at);
    const kind = code < 0x80 ? CLASS[code] : 0;
    if (kind === LETTER) {
      const before = at > start ? text.charCodeAt(at - 1) : SPACE;
      let length = 0;
      let humps = 0;
      let vowels = 0;
      let cluster = 0;
      let longestCluster = 0;
      let nonHex = 0;
      let previousLower = 0;
      for (; at < end; at++) {
        const letter = text.charCodeAt(at);
        if (letter >= 0x80 || CLASS[letter] !== LETTER) break;
        const flags = LETTER_FLAGS[letter];
        const upper = flags & UPPER;
        humps += upper & previousLower;
        previousLower = upper ^ 1;
        const vowel = (flags >> 1) & 1;
        vowels += vowel;
        cluster = (cluster + 1) * (vowel ^ 1);
        longestCluster = cluster > longestCluster ? cluster : longestCluster;
        nonHex |= flags;
        length++;
      }
      if ((nonHex & NON_HEX) === 0 || humps > 2 || joinsRandomRun(before) || (at < end && joinsRandomRun(text.charCodeAt(at)))) tokens += length;
      else {
        let charge = 1 + ((length / 6) | 0);
        const unvoiced = length - 2 * vowels;
        if (unvoiced > charge) charge = unvoiced;
        if (longestCluster > charge) charge = longestCluster;
        tokens += charge + humps;
      }
    } else if (kind === DIGIT) {
      const from = at;
      for (at++; at < end; at++) {
        const digit = text.charCodeAt(at);
        if (digit < 0x30 || digit > 0x39) break;
      }
      tokens += Math.ceil((at - from) / 3);
    } else if (kind === WHITE) {
      const from = at;
      for (at++; at < end; at++) {
        const unit = text.charCodeAt(at);
        if (unit >= 0x80 || CLASS[unit] !== WHITE) break;
      }
      const length = at - from;
      const next = at < end ? text.charCodeAt(at) : 0;
      const joinsNext = next > SPACE && next < 0x80 && CLASS[next] !== DIGIT;
      if (!(length === 1 && code === SPACE && joinsNext)) tokens += 1 + Math.floor(length / 8) + (length > 1 && next !== 0 && !joinsNext ? 1 : 0);
    } else if (kind === OTHER) {
      tokens++;
      at++;
    } else if (code < 0x800) {
      tokens += 2;
      at++;
    } else if (code >= 0xd800 && code <= 0xdbff && at + 1 < end && (text.charCodeAt(at + 1) & 0xfc00) === 0xdc00) {
      tokens += 4;
      at += 2;
    } else {
      tokens += 3;
      at++;
    }
  }
  return tokens;
}

/** Classes of ASCII code units (anything else is not ASCII). */
const LETTER = 1;
const DIGIT = 2;
const WHITE = 3;
const OTHER = 4;
/** Traits of an ASCII letter: upper case, a vowel, a letter past `f` (not hex). */
const UPPER = 1;
const VOWEL = 2;
const NON_HEX = 4;

const CLASS = new Uint8Array(128).fill(OTHER);
const LETTER_FLAGS = new Uint8Array(128);
for (let code = 0x30; code <= 0x39; code++) CLASS[code] = DIGIT;
for (const code of [0x20, 0x09, 0x0a, 0x0d]) CLASS[code] = WHITE;
for (let lower = 0x61; lower <= 0x7a; lower++) {
  const flags = ('aeiou'.includes(String.fromCharCode(lower)) ? VOWEL : 0) | (lower > 0x66 ? NON_HEX : 0);
  CLASS[lower] = LETTER;
  CLASS[lower - 0x20] = LETTER;
  LETTER_FLAGS[lower] = flags;
  LETTER_FLAGS[lower - 0x20] = flags | UPPER;
}

const SPACE = 0x20;

/** A digit, `+`, `/` or `=`: letters touching one are part of an id, a hash or base64. */
function joinsRandomRun(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || code === 0x2b || code === 0x2f || code === 0x3d;
}
