import { OriginalSize, TruncationEnvelope } from './truncation-envelope';
import { utf8Head, utf8Tail } from './utf8-slice';

/* eslint-disable max-len -- the example shows the exact text, one line as the model sees it */
/**
 * The truncated form of a plain-text Tool message:
 *
 * ```
 * [Tool output truncated for the model: the original was 1048576 bytes (about 262144 estimated tokens); its head and tail follow.]
 * <head of the original>
 * [... 983040 bytes omitted ...]
 * <tail of the original>
 * ```
 *
 * The preview budget is split evenly between head and tail (the tail takes what the head could
 * not use). Head and tail never split a UTF-8 sequence or a surrogate pair.
 * @internal
 */
/* eslint-enable max-len */
export function textTruncationEnvelope(text: string, original: OriginalSize): TruncationEnvelope {
  const header =
    `[Tool output truncated for the model: the original was ${original.bytes} bytes ` +
    `(about ${original.tokens} estimated tokens); its head and tail follow.]\n`;
  return {
    slackBytes: 0,
    build(previewBytes: number): string {
      const budget = Math.max(0, Math.min(previewBytes, original.bytes - 1));
      const head = utf8Head(text, Math.floor(budget / 2));
      const tail = utf8Tail(text, budget - head.bytes);
      const omitted = original.bytes - head.bytes - tail.bytes;
      return [header, head.text, `\n[... ${omitted} bytes omitted ...]\n`, tail.text].join('');
    },
  };
}
