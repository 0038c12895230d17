import { JsonValue } from '../outcome/json-value';
import { MessageOrigin } from './agent-run-record';

/**
 * The key under which a stored message's JSON carries its {@link MessageOrigin}. The key is written by the
 * store from the write's options only (a value a caller's message carries under it is replaced), and taken
 * out again when the message is read.
 */
export const ORIGIN_KEY = 'wuweOrigin';

/** What a store writes: a model response (`model`) or anything else (`other`). */
export type WrittenMessageOrigin = Exclude<MessageOrigin, 'unrecorded'>;

/**
 * A stored message's value without its origin, and the origin (`unrecorded` for a row written before origins were
 * kept).
 */
export function splitOrigin(value: JsonValue): { readonly message: JsonValue; readonly origin: MessageOrigin } {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.hasOwn(value, ORIGIN_KEY))
    return { message: value, origin: 'unrecorded' };
  const { [ORIGIN_KEY]: origin, ...message } = value;
  return { message, origin: origin === 'model' ? 'model' : 'other' };
}
