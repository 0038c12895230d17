import { ArgumentLimits } from './argument-limits';
import { escapePointerToken, ValidationIssue } from './validation-issue';

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const MAX_ISSUES = 50;

/** Result of {@link guardJsonValue}: a fresh plain copy of the value, or every issue found. */
export type GuardResult = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly issues: readonly ValidationIssue[] };

interface Frame {
  readonly source: unknown;
  readonly pointer: string;
  readonly depth: number;
  readonly assign: (copy: unknown) => void;
}

/**
 * Walks a value iteratively (no recursion, so deep input cannot overflow the stack) and returns a
 * fresh copy made of plain objects and arrays, or the issues: nesting deeper than `maxDepth`,
 * `__proto__`/`constructor`/`prototype` keys, strings with lone surrogates, non-finite numbers,
 * values that are not JSON (functions, BigInt, symbols, undefined, class instances), and more
 * string bytes than `maxBytes`.
 */
export function guardJsonValue(input: unknown, limits: ArgumentLimits): GuardResult {
  const issues: ValidationIssue[] = [];
  let root: unknown;
  let stringBytes = 0;
  const stack: Frame[] = [{ source: input, pointer: '', depth: 0, assign: (copy) => (root = copy) }];
  while (stack.length > 0 && issues.length < MAX_ISSUES) {
    const { source, pointer, depth, assign } = stack.pop()!;
    if (typeof source === 'string') {
      stringBytes += source.length;
      if (stringBytes > limits.maxBytes) return fail(issues, pointer, `arguments exceed ${limits.maxBytes} bytes`, 'maxBytes');
      if (!source.isWellFormed()) issues.push({ pointer, message: 'string contains a lone surrogate', keyword: 'wellFormed' });
      assign(source);
    } else if (typeof source === 'number') {
      if (!Number.isFinite(source)) issues.push({ pointer, message: 'number must be finite', keyword: 'finite' });
      assign(source);
    } else if (typeof source === 'boolean' || source === null) {
      assign(source);
    } else if (Array.isArray(source)) {
      if (depth >= limits.maxDepth) return fail(issues, pointer, `nesting deeper than ${limits.maxDepth} levels`, 'maxDepth');
      const copy: unknown[] = new Array<unknown>(source.length);
      assign(copy);
      for (let index = source.length - 1; index >= 0; index--)
        stack.push({ source: source[index], pointer: `${pointer}/${index}`, depth: depth + 1, assign: (item) => (copy[index] = item) });
    } else if (isPlainObject(source)) {
      if (depth >= limits.maxDepth) return fail(issues, pointer, `nesting deeper than ${limits.maxDepth} levels`, 'maxDepth');
      const copy: Record<string, unknown> = {};
      assign(copy);
      const keys = Object.keys(source);
      for (let index = keys.length - 1; index >= 0; index--) {
        const key = keys[index];
        const keyPointer = `${pointer}/${escapePointerToken(key)}`;
        if (FORBIDDEN_KEYS.has(key)) {
          issues.push({ pointer: keyPointer, message: `key '${key}' is not allowed`, keyword: 'forbiddenKey' });
          continue;
        }
        if (!key.isWellFormed()) {
          issues.push({ pointer: keyPointer, message: 'key contains a lone surrogate', keyword: 'wellFormed' });
          continue;
        }
        stringBytes += key.length;
        stack.push({ source: source[key], pointer: keyPointer, depth: depth + 1, assign: (item) => (copy[key] = item) });
      }
    } else {
      issues.push({ pointer, message: `${describe(source)} is not a JSON value`, keyword: 'json' });
    }
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value: root };
}

function fail(issues: ValidationIssue[], pointer: string, message: string, keyword: string): GuardResult {
  return { ok: false, issues: [...issues, { pointer, message, keyword }] };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

function describe(value: unknown): string {
  if (typeof value === 'object' && value !== null) return `an instance of ${value.constructor?.name ?? 'an unknown class'}`;
  return `a value of type ${typeof value}`;
}
