import { hash } from 'node:crypto';
import { CanonicalJsonError } from './canonical-json-error';
import { loadCanonicalize } from './load-canonicalize';

/**
 * The RFC 8785 (JSON Canonicalization Scheme) text of a JSON value: object keys sorted by UTF-16 code units,
 * numbers in their shortest round-trip form, no insignificant whitespace. Equal JSON values give equal text.
 *
 * Throws {@link CanonicalJsonError} before serializing when the value holds a string (or key) with a lone
 * surrogate (two different ill-formed strings can encode to the same UTF-8 bytes, so their hashes would
 * collide), a number that is not finite, a BigInt, a function, a symbol, `undefined` at the root, or a cycle.
 * Object properties whose value is `undefined` are left out, as `JSON.stringify` does.
 */
export function canonicalJson(value: unknown): string {
  checkCanonicalizable(value, '', new Set());
  const text = loadCanonicalize()(value);
  if (text === undefined) throw new CanonicalJsonError('', 'the value has no JSON form');
  return text;
}

/**
 * Lowercase hex SHA-256 of the canonical JSON ({@link canonicalJson}) of decoded tool-call arguments,
 * UTF-8 encoded. Pass the decoded object, not the model's raw argument text: the hash must not depend on
 * whitespace or key order.
 */
export function canonicalArgumentsSha256(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}

/** Lowercase hex SHA-256 of the UTF-8 bytes of `text`. */
export function sha256Hex(text: string): string {
  return hash('sha256', text, 'hex');
}

/** True when `text` holds a UTF-16 surrogate that is not part of a valid pair. */
export function hasLoneSurrogate(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(index + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return true;
      index++;
    } else if (code >= 0xdc00 && code <= 0xdfff) {
      return true;
    }
  }
  return false;
}

function checkCanonicalizable(value: unknown, pointer: string, seen: Set<object>): void {
  switch (typeof value) {
    case 'string':
      if (hasLoneSurrogate(value)) throw new CanonicalJsonError(pointer, 'the string contains a lone surrogate');
      return;
    case 'number':
      if (!Number.isFinite(value)) throw new CanonicalJsonError(pointer, `${String(value)} is not a JSON number`);
      return;
    case 'boolean':
      return;
    case 'object':
      break;
    default:
      if (value === undefined && pointer !== '') return;
      throw new CanonicalJsonError(pointer, `a ${typeof value} has no JSON form`);
  }
  if (value === null) return;
  if (seen.has(value)) throw new CanonicalJsonError(pointer, 'the value contains a cycle');
  seen.add(value);
  if (Array.isArray(value)) {
    value.forEach((item: unknown, index) =>
      checkCanonicalizable(item === undefined ? null : item, `${pointer}/${index}`, seen),
    );
  } else {
    const json = (value as { toJSON?: () => unknown }).toJSON;
    if (typeof json === 'function') {
      checkCanonicalizable(json.call(value), pointer, seen);
    } else {
      for (const [key, item] of Object.entries(value)) {
        const child = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
        if (hasLoneSurrogate(key)) throw new CanonicalJsonError(child, 'the key contains a lone surrogate');
        checkCanonicalizable(item, child, seen);
      }
    }
  }
  seen.delete(value);
}
