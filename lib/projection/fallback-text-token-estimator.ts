import { countUtf8Pieces, END_OF_TEXT, separatesPieces } from './count-utf8-pieces';
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
 * 48 KiB: a text over 16 Ki code units is counted in parts, cut between pieces. For text much larger
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
 * their tokens per code unit, times the length, plus 10%. Exact for shorter text. Not a bound for text whose parts
 * differ (prose in the samples,
 * base64 between them): the projection uses it only for the size it reports of an original it
 * truncates anyway, never for what it sends.
 */
export function estimateLargeTextTokens(text: string): number {
  return estimateSampledTokens(text.length, (start, end) =>
    start === 0 && end === text.length ? text : text.substring(start, end),
  );
}

/**
 * {@link estimateLargeTextTokens} of a text of `length` code units known only through `slice`,
 * which answers `text.substring(start, end)`: asked for the 32 windows (or, for a text of at most
 * 32 Ki code units, for the whole), so a text kept in parts is never joined. Same answer as
 * `estimateLargeTextTokens` on the whole text.
 * @internal
 */
export function estimateSampledTokens(length: number, slice: (start: number, end: number) => string): number {
  if (length <= SAMPLE_WINDOWS * WINDOW_UNITS * 2) return fallbackTextTokenEstimator.estimateTokens(slice(0, length));
  const stride = Math.floor((length - WINDOW_UNITS) / (SAMPLE_WINDOWS - 1));
  let sampled = 0;
  for (let window = 0; window < SAMPLE_WINDOWS; window++) {
    const start = window * stride;
    sampled += countPieces(slice(start, start + WINDOW_UNITS), 0, WINDOW_UNITS);
  }
  return Math.ceil((sampled / (SAMPLE_WINDOWS * WINDOW_UNITS)) * length * 1.1) + SLACK;
}

/** Code units encoded at a time: a longer text is counted in parts of about this many. */
const PART_UNITS = 16_384;
const SPACE = 0x20;
const encoder = new TextEncoder();
/** The buffer every part is encoded into: the byte before it, 3 bytes per code unit at most, the end byte (48 KiB). */
const scratch = new Uint8Array(3 * PART_UNITS + 2);
/** Where the encoder writes in {@link scratch}: after the byte before the part. */
const scratchText = scratch.subarray(1);

/**
 * Tokens charged to `text[start..end)` (see {@link FallbackTextTokenEstimator}), in parts of about
 * {@link PART_UNITS} code units cut between two pieces (see {@link cutBetweenPieces}), whose counts
 * add up to the count of the whole.
 */
function countPieces(text: string, start: number, end: number): number {
  let tokens = 0;
  let before = SPACE;
  while (end - start > PART_UNITS) {
    const cut = cutBetweenPieces(text, start, end);
    if (cut === end) break;
    tokens += countPart(text, start, cut, before, byteOf(text.charCodeAt(cut)));
    before = byteOf(text.charCodeAt(cut - 1));
    start = cut;
  }
  return tokens + countPart(text, start, end, before, 0);
}

/**
 * Where to end the part of `text[start..end)` that starts at `start`: the last place between two
 * pieces in the second half of its first {@link PART_UNITS} code units, or else (a run of letters,
 * digits or white space over 8 Ki code units) the first one after them, or `end`.
 */
function cutBetweenPieces(text: string, start: number, end: number): number {
  const lowest = start + PART_UNITS / 2;
  for (let cut = start + PART_UNITS; cut >= lowest; cut--)
    if (separatesPieces(text.charCodeAt(cut - 1), text.charCodeAt(cut))) return cut;
  for (let cut = start + PART_UNITS + 1; cut < end; cut++)
    if (separatesPieces(text.charCodeAt(cut - 1), text.charCodeAt(cut))) return cut;
  return end;
}

/**
 * The byte that stands for code unit `code` as the neighbour of a part: itself if ASCII, else any byte of a non-ASCII
 * character.
 */
function byteOf(code: number): number {
  return code < 0x80 ? code : 0x80;
}

/**
 * Tokens charged to `text[start..end)` preceded by the byte `before` and followed by the byte
 * `after` (see {@link countUtf8Pieces}): the platform's UTF-8 encoder writes the part into a byte
 * buffer, then {@link countUtf8Pieces} reads it. The buffer is {@link scratch} (the scan never yields,
 * so calls cannot interleave); a part longer than {@link PART_UNITS} (one with a run over 8 Ki code
 * units) gets one of its own, 3 bytes per code unit reserved, the pages touched only as far as the
 * encoder writes.
 */
function countPart(text: string, start: number, end: number, before: number, after: number): number {
  const units = end - start;
  if (units <= 0) return 0;
  let bytes = scratch;
  let into = scratchText;
  if (units > PART_UNITS) {
    bytes = new Uint8Array(3 * units + 2);
    into = bytes.subarray(1);
  }
  bytes[0] = before;
  const { written } = encoder.encodeInto(units === text.length ? text : text.substring(start, end), into);
  bytes[written + 1] = END_OF_TEXT;
  return countUtf8Pieces(bytes, after);
}
