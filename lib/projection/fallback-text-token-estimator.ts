import { countUtf8Pieces, END_OF_TEXT } from './count-utf8-pieces';
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
 * Cost: the platform's UTF-8 encoder (`TextEncoder.encodeInto`) writes the text into a reused byte
 * buffer, then one JavaScript loop reads the bytes; measured (`npm run bench -- projection`) at about
 * 1.1x a bare `charCodeAt` loop over the same text for 4 KiB of JSON, 1.5x for English prose and 3x
 * for a 29-character JSON result (the encoder call is most of that), also in a process that has
 * handed it strings of every representation (ropes, slices, two-byte). Keeps one scratch buffer of
 * at most 192 KiB. For text much larger than what is sent, `estimateLargeTextTokens` samples
 * instead of reading everything.
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

/** Code units whose UTF-8 (at most 3 bytes each, and the end byte) fits the scratch buffer kept between calls: 64 Ki, 192 KiB. */
const SCRATCH_UNITS = 65_536;
const encoder = new TextEncoder();
/** The buffer each text up to {@link SCRATCH_UNITS} is encoded into; grown on demand, never past 192 KiB. */
let scratch = new Uint8Array(0);

/**
 * Tokens charged to `text[start..end)` (see {@link FallbackTextTokenEstimator}): the platform's UTF-8
 * encoder writes the text into a byte buffer, then {@link countUtf8Pieces} reads it. Up to 64 Ki code
 * units the buffer is one scratch buffer reused by every call (the scan never yields, so calls cannot
 * interleave); a longer text gets its own for the call (3 bytes per code unit reserved, the pages
 * touched only as far as the encoder writes).
 */
function countPieces(text: string, start: number, end: number): number {
  const units = end - start;
  if (units <= 0) return 0;
  const capacity = 3 * units + 1;
  let bytes = scratch;
  if (capacity > bytes.length)
    if (units <= SCRATCH_UNITS) bytes = scratch = new Uint8Array(Math.min(Math.max(capacity, 2 * bytes.length, 1024), 3 * SCRATCH_UNITS + 1));
    else bytes = new Uint8Array(capacity);
  const { written } = encoder.encodeInto(units === text.length ? text : text.substring(start, end), bytes);
  bytes[written] = END_OF_TEXT;
  return countUtf8Pieces(bytes);
}
