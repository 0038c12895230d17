/** Keeps the first `maxBytes` bytes of a stream and counts the rest. */
export class OutputCapture {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  /** Every byte seen, kept or not. */
  totalBytes = 0;

  constructor(private readonly maxBytes: number) {}

  /** Records one chunk; bytes past the cap are counted, not kept. */
  push(chunk: Buffer): void {
    this.totalBytes += chunk.length;
    const room = this.maxBytes - this.kept;
    if (room <= 0) return;
    const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
    this.chunks.push(part);
    this.kept += part.length;
  }

  /** True when bytes were dropped. */
  get truncated(): boolean {
    return this.totalBytes > this.kept;
  }

  /**
   * The kept bytes as UTF-8 text. When the cap cut the stream, a multi-byte sequence cut at the cap
   * is left out whole (up to 3 bytes), so the text never ends in a U+FFFD the output did not have.
   */
  text(): string {
    const bytes = Buffer.concat(this.chunks, this.kept);
    return (this.truncated ? bytes.subarray(0, wholeSequencesLength(bytes)) : bytes).toString('utf8');
  }
}

/**
 * Length of `bytes` without a trailing UTF-8 sequence that is incomplete (its lead byte promises more bytes than
 * follow).
 */
export function wholeSequencesLength(bytes: Buffer): number {
  for (let back = 1; back <= Math.min(4, bytes.length); back += 1) {
    const byte = bytes[bytes.length - back];
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: look further back for its lead
    const expected = byte >= 0xf0 && byte <= 0xf4 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc2 ? 2 : 1;
    return expected > back && byte < 0xf5 ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}
