/**
 * The reference the fast fallback estimator (`lib/projection/fallback-text-token-estimator.ts`) must
 * agree with, number for number, on every string: a frozen copy of its straightforward version
 * (classes and letter traits from two tables, one branch per piece kind, `Math.ceil`/`Math.floor`).
 * Never optimize or change this file; change the rules in both places or nowhere.
 */

const SLACK = 2;
const SAMPLE_WINDOWS = 32;
const WINDOW_UNITS = 512;

/** What `fallbackTextTokenEstimator.estimateTokens(text)` must answer. */
export function referenceEstimateTokens(text: string): number {
  return text.length === 0 ? 0 : referenceCountPieces(text, 0, text.length) + SLACK;
}

/** What `estimateLargeTextTokens(text)` must answer. */
export function referenceEstimateLargeTextTokens(text: string): number {
  if (text.length <= SAMPLE_WINDOWS * WINDOW_UNITS * 2) return referenceEstimateTokens(text);
  const stride = Math.floor((text.length - WINDOW_UNITS) / (SAMPLE_WINDOWS - 1));
  let sampled = 0;
  for (let window = 0; window < SAMPLE_WINDOWS; window++) {
    const start = window * stride;
    sampled += referenceCountPieces(text, start, start + WINDOW_UNITS);
  }
  return Math.ceil((sampled / (SAMPLE_WINDOWS * WINDOW_UNITS)) * text.length * 1.1) + SLACK;
}

/** Tokens charged to `text[start..end)`, as the reference counts them. */
export function referenceCountPieces(text: string, start: number, end: number): number {
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
      if (
        (nonHex & NON_HEX) === 0 ||
        humps > 2 ||
        joinsRandomRun(before) ||
        (at < end && joinsRandomRun(text.charCodeAt(at)))
      )
        tokens += length;
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
      if (!(length === 1 && code === SPACE && joinsNext))
        tokens += 1 + Math.floor(length / 8) + (length > 1 && next !== 0 && !joinsNext ? 1 : 0);
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

const LETTER = 1;
const DIGIT = 2;
const WHITE = 3;
const OTHER = 4;
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

function joinsRandomRun(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || code === 0x2b || code === 0x2f || code === 0x3d;
}
