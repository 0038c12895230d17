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

/** Tokens charged to `text[start..end)` (see {@link FallbackTextTokenEstimator}). */
function countPieces(text: string, start: number, end: number): number {
  let tokens = 0;
  let at = start;
  while (at < end) {
    const code = text.charCodeAt(at);
    if (isLetter(code)) {
      const before = at > start ? text.charCodeAt(at - 1) : SPACE;
      let length = 0;
      let humps = 0;
      let vowels = 0;
      let cluster = 0;
      let longestCluster = 0;
      let hexOnly = true;
      let previous = 0;
      for (; at < end; at++) {
        const letter = text.charCodeAt(at);
        if (!isLetter(letter)) break;
        if (letter <= Z && previous >= LOWER_A) humps++;
        const lower = letter | 0x20;
        if (lower === 0x61 || lower === 0x65 || lower === 0x69 || lower === 0x6f || lower === 0x75) {
          vowels++;
          cluster = 0;
        } else if (++cluster > longestCluster) longestCluster = cluster;
        if (lower > 0x66) hexOnly = false;
        previous = letter;
        length++;
      }
      const after = at < end ? text.charCodeAt(at) : SPACE;
      const random = hexOnly || humps > 2 || joinsRandomRun(before) || joinsRandomRun(after);
      tokens += random ? length : Math.max(1 + Math.floor(length / 6), length - 2 * vowels, longestCluster) + humps;
    } else if (isDigit(code)) {
      let length = 0;
      for (; at < end && isDigit(text.charCodeAt(at)); at++) length++;
      tokens += Math.ceil(length / 3);
    } else if (code === SPACE || code === 0x09 || code === 0x0a || code === 0x0d) {
      let length = 0;
      for (let unit = code; at < end && (unit === SPACE || unit === 0x09 || unit === 0x0a || unit === 0x0d); unit = text.charCodeAt(++at)) length++;
      const next = at < end ? text.charCodeAt(at) : 0;
      const joinsNext = next > SPACE && next < 0x80 && !isDigit(next);
      if (!(length === 1 && code === SPACE && joinsNext)) tokens += 1 + Math.floor(length / 8) + (length > 1 && next !== 0 && !joinsNext ? 1 : 0);
    } else if (code < 0x80) {
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

const SPACE = 0x20;
const Z = 0x5a;
const LOWER_A = 0x61;

function isLetter(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/** A digit, `+`, `/` or `=`: letters touching one are part of an id, a hash or base64. */
function joinsRandomRun(code: number): boolean {
  return isDigit(code) || code === 0x2b || code === 0x2f || code === 0x3d;
}
