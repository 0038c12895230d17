/** Reading the parts of a client's UI messages: plain JSON the client controls, so every field is checked. */

/** A JSON object (no array, no class instance). @internal */
export type PlainObject = Record<string, unknown>;

/** True for a plain object (its prototype `Object.prototype` or `null`), as `JSON.parse` makes. @internal */
export function isPlainObject(value: unknown): value is PlainObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** An own property of a plain object (never its prototype's: `__proto__`, `constructor` read nothing). @internal */
export function own(object: PlainObject, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined;
}

/** The tool name of a tool part (`tool-<name>`, or `dynamic-tool` with `toolName`), else `undefined`. @internal */
export function toolNameOfPart(part: PlainObject): string | undefined {
  const type = own(part, 'type');
  if (type === 'dynamic-tool') {
    const name = own(part, 'toolName');
    return typeof name === 'string' ? name : '';
  }
  return typeof type === 'string' && type.startsWith('tool-') ? type.slice('tool-'.length) : undefined;
}
