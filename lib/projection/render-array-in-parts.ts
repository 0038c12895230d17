import { types } from 'node:util';
import { estimateSampledTokens } from './fallback-text-token-estimator';
import type { MeasuredOriginal } from './measure-original';

/**
 * How an array is rendered in parts (see {@link renderArrayInParts}). @internal
 */
export interface ArrayPartsLimits {
  /** Arrays with fewer items are rendered whole (one `JSON.stringify`, nothing to gain). */
  readonly minItems: number;
  /** Code units a part aims at: small enough that its flat string is an ordinary young object. */
  readonly partUnits: number;
  /**
   * Code units of parts kept while rendering; past this (and past `maxBytes`), only the parts of
   * the first `maxBytes + 1` code units are kept and the few parts the sampled windows fall in
   * are rendered again.
   */
  readonly keepUnits: number;
}

/** The limits the projection uses. @internal */
export const ARRAY_PARTS_LIMITS: ArrayPartsLimits = Object.freeze({
  minItems: 64,
  partUnits: 8_192,
  keepUnits: 1 << 21,
});

/**
 * Renders `JSON.stringify(data)` of an array as consecutive parts, each the JSON of a run of items
 * (`JSON.stringify` of a copy of that run), measured one by one: the exact UTF-8 size of the whole
 * is the sum of the parts' sizes, the commas and the brackets. Same length, bytes, text and
 * sampled tokens as the whole string, but no single string of the whole size is built: V8 returns
 * `JSON.stringify`'s result as a rope, and measuring its bytes flattens it into one fresh string of
 * the whole size, a copy into newly mapped memory that cost as much as rendering it. Parts of
 * about 8 Ki code units are flattened in the young generation instead; over 2 Mi code units they
 * are not kept (keeping them costs a promotion to the old generation), except those a preview may
 * quote, and the 32 windows of the sampled token estimate render their parts again.
 *
 * Answers `undefined` (render it whole) for fewer than `minItems` items, a proxy, an array with a
 * `toJSON`, and an array with an item that has one or is a BigInt (`toJSON` receives the item's
 * index, which a part would change), or whose parts render differently the second time (a getter
 * that changes its answer). Throws what `JSON.stringify` throws (a cycle, a BigInt).
 * @internal
 */
export function renderArrayInParts(
  data: readonly unknown[],
  maxBytes: number,
  limits: ArrayPartsLimits = ARRAY_PARTS_LIMITS,
): MeasuredOriginal | undefined {
  if (data.length < Math.max(1, limits.minItems) || types.isProxy(data) || 'toJSON' in data) return undefined;
  const parts = new ArrayParts(data);
  const keepUnits = Math.max(limits.keepUnits, maxBytes + 1);
  let items = Math.min(data.length, Math.max(1, limits.minItems));
  let bytes = 1;
  let dropping = false;
  for (let first = 0; first < data.length;) {
    const end = Math.min(data.length, first + items);
    const json = renderPart(data, first, end);
    if (json === undefined) return undefined;
    bytes += Buffer.byteLength(json, 'utf8') - 1;
    parts.add(json, end, !dropping || parts.length <= maxBytes);
    if (!dropping && parts.length > keepUnits) {
      dropping = true;
      parts.dropFrom(maxBytes + 1);
    }
    // Items for the next part: the last part's units per item, aimed at partUnits, at most doubled.
    items = Math.max(1, Math.min(2 * (end - first), Math.floor(((end - first) * limits.partUnits) / json.length)));
    first = end;
  }
  const length = parts.finish();
  const slice = (start: number, end: number): string => parts.slice(start, end);
  const head = (): string => slice(0, Math.min(length, maxBytes + 1));
  if (bytes <= maxBytes) return { length, bytes, text: slice(0, length), head, sampledTokens: 0 };
  const sampledTokens = estimateSampledTokens(length, slice);
  return parts.consistent ? { length, bytes, text: undefined, head, sampledTokens } : undefined;
}

/**
 * `JSON.stringify` of items `first..end` of `data`, or `undefined` when an item's rendering could depend on its index.
 */
function renderPart(data: readonly unknown[], first: number, end: number): string | undefined {
  const part = new Array<unknown>(end - first);
  for (let index = first; index < end; index++) {
    const item = data[index];
    if (
      typeof item === 'bigint' ||
      (((typeof item === 'object' && item !== null) || typeof item === 'function') && 'toJSON' in item)
    )
      return undefined;
    part[index - first] = item;
  }
  return JSON.stringify(part);
}

/**
 * The parts of one array's JSON text. The text is `piece(0) + piece(1) + ... + "]"`, where piece
 * `i` is part `i`'s JSON without its closing bracket, its opening bracket replaced by a comma for
 * every part after the first.
 */
class ArrayParts {
  /** JSON of each part (brackets included), or `undefined` once dropped. */
  private readonly json: Array<string | undefined> = [];
  /** Where each piece starts in the text; after {@link finish}, one more: the closing bracket. */
  private readonly starts: number[] = [];
  /** The first item of each part; one more: the end of the last. */
  private readonly firstItems: number[] = [0];
  /** The last part rendered again, and its index. */
  private again: string | undefined;
  private againIndex = -1;
  /** Code units of the pieces so far (the text's length less its closing bracket). */
  length = 0;
  /** False once a part rendered again differed from the first rendering. */
  consistent = true;

  constructor(private readonly data: readonly unknown[]) {}

  add(json: string, endItem: number, keep: boolean): void {
    this.json.push(keep ? json : undefined);
    this.starts.push(this.length);
    this.firstItems.push(endItem);
    this.length += json.length - 1;
  }

  /** Drops every part that starts at or after `units` (the head a preview may quote stays). */
  dropFrom(units: number): void {
    for (
      let index = this.json.length - 1;
      index >= 0 && this.starts[index] >= units && this.json[index] !== undefined;
      index--
    )
      this.json[index] = undefined;
  }

  /** Adds the closing bracket and answers the text's length. */
  finish(): number {
    this.starts.push(this.length);
    return ++this.length;
  }

  /** `text.substring(start, end)`, from the kept parts or parts rendered again. */
  slice(start: number, end: number): string {
    if (end <= start) return '';
    const last = this.json.length;
    if (start === 0 && end === this.length && last === 1 && this.json[0] !== undefined) return this.json[0];
    const pieces: string[] = [];
    for (let index = this.partAt(start), at = start; at < end; index++) {
      if (index === last) {
        pieces.push(']');
        break;
      }
      const json = this.partJson(index);
      const from = at - this.starts[index];
      const to = Math.min(end - this.starts[index], json.length - 1);
      pieces.push(from === 0 && index > 0 ? ',' + json.slice(1, to) : json.slice(from, to));
      at = this.starts[index] + to;
    }
    return pieces.length === 1 ? pieces[0] : pieces.join('');
  }

  /** The part (or the closing bracket, index `json.length`) that holds code unit `at`. */
  private partAt(at: number): number {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.starts[middle] <= at) low = middle;
      else high = middle - 1;
    }
    return low;
  }

  private partJson(index: number): string {
    const kept = this.json[index];
    if (kept !== undefined) return kept;
    if (this.againIndex !== index) {
      const json = renderPart(this.data, this.firstItems[index], this.firstItems[index + 1]) ?? '';
      const expected = this.starts[index + 1] - this.starts[index] + 1;
      if (json.length !== expected) this.consistent = false;
      this.again = json.length === expected ? json : '['.padEnd(expected, ' ');
      this.againIndex = index;
    }
    return this.again as string;
  }
}
