/** One problem found in a value, located by JSON Pointer (RFC 6901; '' is the root). */
export interface ValidationIssue {
  readonly pointer: string;
  readonly message: string;
  /** The JSON Schema keyword or guard rule that failed (`required`, `type`, `maxDepth`, `forbiddenKey`, ...). */
  readonly keyword: string;
}

/** Escapes one reference token of a JSON Pointer. */
export function escapePointerToken(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Resolves a JSON Pointer in a JSON value; `undefined` when absent. Never walks prototypes. */
export function resolveJsonPointer(value: unknown, pointer: string): unknown {
  if (pointer === '') return value;
  if (!pointer.startsWith('/')) return undefined;
  let current: unknown = value;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof current !== 'object' || current === null) return undefined;
    if (!Object.prototype.hasOwnProperty.call(current, token)) return undefined;
    current = (current as Record<string, unknown>)[token];
  }
  return current;
}
