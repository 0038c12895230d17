import { JsonValue } from '../outcome/json-value';
import { jsonStringPrefix } from './json-string-prefix';
import { OriginalSize, TruncationEnvelope } from './truncation-envelope';

/** Tells the model how to read a truncated array. @internal */
export const ITEMS_NOTICE = 'Output too large for the model: items holds the first shownItems of totalItems array items.';
/** Tells the model how to read a truncated JSON preview. @internal */
export const PREVIEW_NOTICE = 'Output too large for the model: preview holds the start of its JSON text.';

/**
 * The truncated form of a structured success, always a JSON object. Two shapes:
 *
 * - an array whose first item fits the byte budget keeps a prefix of whole items:
 *   `{"truncated":true,"notice":"...","originalBytes":B,"originalTokens":T,"totalItems":N,"shownItems":K,"items":[...first K items]}`
 * - anything else carries the start of its JSON text as a string:
 *   `{"truncated":true,"notice":"...","originalBytes":B,"originalTokens":T,"preview":"{\"rows\":[{\"id\":1,..."}`
 *
 * `json` is the rendered Tool message (the JSON of `data`); `maxBytes` is the byte ceiling: items
 * are serialized one by one only until they fill what the ceiling leaves beside the envelope.
 * @internal
 */
export function dataTruncationEnvelope(data: JsonValue, json: string, original: OriginalSize, maxBytes: number): TruncationEnvelope {
  if (Array.isArray(data) && data.length > 0) {
    const prefix = itemsEnvelopePrefix(data.length, original);
    const room = maxBytes - Buffer.byteLength(`${prefix}${data.length},"items":[]}`, 'utf8');
    const items = serializeItemPrefix(data, room, original.bytes === json.length);
    if (items.json.length > 0) return itemsEnvelope(prefix, items, data.length);
  }
  return {
    slackBytes: 0,
    build(previewBytes: number): string {
      const preview = jsonStringPrefix(json, Math.max(0, previewBytes)).prefix;
      return JSON.stringify({ truncated: true, notice: PREVIEW_NOTICE, originalBytes: original.bytes, originalTokens: original.tokens, preview });
    },
  };
}

interface ItemPrefix {
  /** JSON of each leading item, while their running size fits. */
  readonly json: readonly string[];
  /** `cumulativeBytes[k]`: bytes of the first k items joined by commas. */
  readonly cumulativeBytes: readonly number[];
}

/**
 * Serializes leading items until their joined size passes `maxPreviewBytes`: O(maxPreviewBytes
 * plus the first item that does not fit). When the whole JSON text is ASCII (`asciiOnly`), an
 * item's UTF-16 length is its byte length and no byte count is taken.
 */
function serializeItemPrefix(data: readonly JsonValue[], maxPreviewBytes: number, asciiOnly: boolean): ItemPrefix {
  const json: string[] = [];
  const cumulativeBytes = [0];
  let total = 0;
  for (let index = 0; index < data.length; index++) {
    const item = (JSON.stringify(data[index]) as string | undefined) ?? 'null';
    total += (asciiOnly ? item.length : Buffer.byteLength(item, 'utf8')) + (index > 0 ? 1 : 0);
    if (total > maxPreviewBytes) break;
    json.push(item);
    cumulativeBytes.push(total);
  }
  return { json, cumulativeBytes };
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
      let shown = 0;
      while (shown < items.json.length && items.cumulativeBytes[shown + 1] <= previewBytes) shown++;
      return `${prefix}${shown},"items":[${items.json.slice(0, shown).join(',')}]}`;
    },
  };
}
