/** A piece of text with its exact UTF-8 byte length. @internal */
export interface Utf8Piece {
  readonly text: string;
  readonly bytes: number;
}

const encoder = new TextEncoder();
let scratch = new Uint8Array(4096);

function scratchOf(size: number): Uint8Array {
  if (scratch.length < size) scratch = new Uint8Array(Math.max(size, scratch.length * 2));
  return scratch.subarray(0, size);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Replaces lone surrogates by U+FFFD, which has the same UTF-8 size (3 bytes) as `Buffer.byteLength` counts them. */
function wellFormed(text: string): string {
  return (text as unknown as { toWellFormed(): string }).toWellFormed();
}

/**
 * The longest prefix of `text` whose UTF-8 encoding fits in `maxBytes`. Never splits a UTF-8
 * sequence or a surrogate pair; a lone surrogate becomes U+FFFD (same byte size). Costs
 * O(maxBytes): only a window of `maxBytes` code units is encoded (with `TextEncoder.encodeInto`).
 * @internal
 */
export function utf8Head(text: string, maxBytes: number): Utf8Piece {
  if (maxBytes <= 0 || text.length === 0) return { text: '', bytes: 0 };
  let end = Math.min(text.length, maxBytes);
  if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1)) && isLowSurrogate(text.charCodeAt(end))) end--;
  const window = end === text.length ? text : text.slice(0, end);
  const { read, written } = encoder.encodeInto(window, scratchOf(maxBytes));
  return { text: wellFormed(read === window.length ? window : window.slice(0, read)), bytes: written };
}

/**
 * The longest suffix of `text` whose UTF-8 encoding fits in `maxBytes`, with the guarantees of
 * {@link utf8Head}. Costs O(maxBytes).
 * @internal
 */
export function utf8Tail(text: string, maxBytes: number): Utf8Piece {
  if (maxBytes <= 0 || text.length === 0) return { text: '', bytes: 0 };
  let start = Math.max(0, text.length - maxBytes);
  if (start > 0 && isLowSurrogate(text.charCodeAt(start)) && isHighSurrogate(text.charCodeAt(start - 1))) start++;
  const window = start === 0 ? text : text.slice(start);
  const windowBytes = Buffer.byteLength(window, 'utf8');
  if (windowBytes <= maxBytes) return { text: wellFormed(window), bytes: windowBytes };
  // Skip whole characters worth at least `skip` bytes from the start of the window.
  const skip = windowBytes - maxBytes;
  const { read, written } = encoder.encodeInto(window, scratchOf(skip));
  let cut = read;
  if (written < skip)
    cut += isHighSurrogate(window.charCodeAt(cut)) && isLowSurrogate(window.charCodeAt(cut + 1)) ? 2 : 1;
  const tail = window.slice(cut);
  return { text: wellFormed(tail), bytes: Buffer.byteLength(tail, 'utf8') };
}
