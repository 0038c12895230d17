import { JsonValue } from '../outcome/json-value';
import { jsonStringPrefix } from './json-string-prefix';
import { OriginalSize, TruncationEnvelope } from './truncation-envelope';

/** Tells the model how to read a truncated array. @internal */
export const ITEMS_NOTICE =
  'Output too large for the model: items holds the first shownItems of totalItems array items.';
/** Tells the model how to read a truncated JSON preview. @internal */
export const PREVIEW_NOTICE = 'Output too large for the model: preview holds the start of its JSON text.';

/* eslint-disable max-len -- the example shows the exact text, one line as the model sees it */
/**
 * The truncated form of a structured success, always a JSON object. Two shapes:
 *
 * - an array whose first item fits the byte budget keeps a prefix of whole items:
 * `{"truncated":true,"notice":"...","originalBytes":B,"originalTokens":T,"totalItems":N,"shownItems":K,"items":[...first
 * K items]}`
 * - anything else carries the start of its JSON text as a string:
 *   `{"truncated":true,"notice":"...","originalBytes":B,"originalTokens":T,"preview":"{\"rows\":[{\"id\":1,..."}`
 *
 * `json` answers the rendered Tool message (the JSON of `data`), or at least its first `maxBytes + 1`
 * code units (a preview quotes no more), asked only for a preview; `jsonLength` is its length in code units; `maxBytes`
 * is
 * the byte ceiling. Items are serialized one by one, only as far as the largest preview asked for
 * (and never past what the ceiling leaves beside the envelope): O(largest preview), whatever the
 * array's size.
 * @internal
 */
/* eslint-enable max-len */
export function dataTruncationEnvelope(
  data: JsonValue,
  json: () => string,
  jsonLength: number,
  original: OriginalSize,
  maxBytes: number,
): TruncationEnvelope {
  if (Array.isArray(data) && data.length > 0) {
    const prefix = itemsEnvelopePrefix(data.length, original);
    const room = maxBytes - Buffer.byteLength(`${prefix}${data.length},"items":[]}`, 'utf8');
    const items = new ItemPrefix(data, room, original.bytes === jsonLength);
    if (items.serializeUpTo(0) > 0) return itemsEnvelope(prefix, items, data.length);
  }
  let text: string | undefined;
  return {
    slackBytes: 0,
    build(previewBytes: number): string {
      text ??= json();
      const preview = jsonStringPrefix(text, Math.max(0, previewBytes)).prefix;
      return JSON.stringify({
        truncated: true,
        notice: PREVIEW_NOTICE,
        originalBytes: original.bytes,
        originalTokens: original.tokens,
        preview,
      });
    },
  };
}

/**
 * The JSON of the leading items of an array, serialized on demand while their joined size stays
 * within `room`. When the whole JSON text is ASCII (`asciiOnly`), an item's UTF-16 length is its
 * byte length and no byte count is taken.
 */
class ItemPrefix {
  /** JSON of each leading item serialized so far. */
  readonly json: string[] = [];
  /** `cumulativeBytes[k]`: bytes of the first k items joined by commas. */
  readonly cumulativeBytes: number[] = [0];
  /** True once the next item would pass `room`, or there is none. */
  private complete = false;

  constructor(
    private readonly data: readonly JsonValue[],
    private readonly room: number,
    private readonly asciiOnly: boolean,
  ) {}

  /**
   * Serializes items until the joined size passes `previewBytes` (or `room`, or the items run out)
   * and answers how many are serialized: every item a preview of `previewBytes` can show is then
   * serialized, plus at most one.
   */
  serializeUpTo(previewBytes: number): number {
    while (!this.complete && this.cumulativeBytes[this.json.length] <= previewBytes) {
      const index = this.json.length;
      if (index === this.data.length) {
        this.complete = true;
        break;
      }
      const item = (JSON.stringify(this.data[index]) as string | undefined) ?? 'null';
      const total =
        this.cumulativeBytes[index] +
        (this.asciiOnly ? item.length : Buffer.byteLength(item, 'utf8')) +
        (index > 0 ? 1 : 0);
      if (total > this.room) this.complete = true;
      else {
        this.json.push(item);
        this.cumulativeBytes.push(total);
      }
    }
    return this.json.length;
  }
}

function itemsEnvelopePrefix(totalItems: number, original: OriginalSize): string {
  return (
    `{"truncated":true,"notice":${JSON.stringify(ITEMS_NOTICE)},"originalBytes":${original.bytes},` +
    `"originalTokens":${original.tokens},"totalItems":${totalItems},"shownItems":`
  );
}

function itemsEnvelope(prefix: string, items: ItemPrefix, totalItems: number): TruncationEnvelope {
  return {
    slackBytes: String(totalItems).length - 1,
    build(previewBytes: number): string {
      const serialized = items.serializeUpTo(previewBytes);
      let shown = 0;
      while (shown < serialized && items.cumulativeBytes[shown + 1] <= previewBytes) shown++;
      return `${prefix}${shown},"items":[${items.json.slice(0, shown).join(',')}]}`;
    },
  };
}
