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

  /** The kept bytes as UTF-8 text (a character cut at the cap shows as U+FFFD). */
  text(): string {
    return Buffer.concat(this.chunks, this.kept).toString('utf8');
  }
}
