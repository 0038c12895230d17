import { utf8Head } from './utf8-slice';

/** A prefix of a text and the UTF-8 size of its JSON string literal without the quotes. @internal */
export interface JsonStringPrefix {
  readonly prefix: string;
  readonly escapedBytes: number;
}

const MAX_STEPS = 8;

/** UTF-8 bytes of `text` as a JSON string literal, without the two quotes. @internal */
export function escapedJsonBytes(text: string): number {
  return Buffer.byteLength(JSON.stringify(text), 'utf8') - 2;
}

/**
 * A prefix of `text` whose JSON string literal (escapes included, quotes excluded) fits in
 * `maxBytes`. Starts from the longest prefix of `maxBytes` raw bytes and shrinks it in proportion
 * to the escaping overhead it measured; at most 8 steps of O(maxBytes) each, then the empty prefix.
 * @internal
 */
export function jsonStringPrefix(text: string, maxBytes: number): JsonStringPrefix {
  let rawBytes = maxBytes;
  for (let step = 0; step < MAX_STEPS && rawBytes > 0; step++) {
    const head = utf8Head(text, rawBytes);
    const escapedBytes = escapedJsonBytes(head.text);
    if (escapedBytes <= maxBytes) return { prefix: head.text, escapedBytes };
    rawBytes = Math.min(head.bytes - 1, Math.floor((head.bytes * maxBytes) / escapedBytes) - step);
  }
  return { prefix: '', escapedBytes: 0 };
}
