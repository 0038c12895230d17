import { ArgumentLimits, maxElementsOf } from './argument-limits';
import { capIssues, escapePointerToken, MAX_REPORTED_ISSUES, ValidationIssue } from './validation-issue';

/**
 * `__proto__`, `constructor` and `prototype`: keys no JSON value may have (three comparisons are cheaper than a set
 * lookup).
 */
function isForbiddenKey(key: string): boolean {
  return key === '__proto__' || key === 'constructor' || key === 'prototype';
}

/**
 * Result of {@link guardJsonValue}: the checked value (a fresh plain copy unless told otherwise), or the issues found
 * (see `capIssues`).
 */
export type GuardResult =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly issues: readonly ValidationIssue[] };

/** Options of {@link guardJsonValue}. */
export interface GuardJsonValueOptions {
  /**
   * Return a fresh copy made of plain objects and arrays. Pass `false` only for a value nobody else
   * holds, such as the fresh output of `JSON.parse`: the checks are the same, the input is returned.
   * @default true
   */
  readonly copy?: boolean;
  /**
   * The size and element count were already checked on the JSON text this value was parsed from:
   * skip measuring them again.
   * @default false
   */
  readonly sizeChecked?: boolean;
}

/**
 * Walks a value iteratively (no recursion, so deep input cannot overflow the stack) and returns it,
 * as a fresh copy made of plain objects and arrays by default, or the issues: nesting deeper than
 * `maxDepth`, `__proto__`/`constructor`/`prototype` keys, strings with lone surrogates, non-finite
 * numbers, values that are not JSON (functions, BigInt, symbols, undefined, class instances), more
 * than `maxBytes` of compact JSON text counted in UTF-8 (see {@link ArgumentLimits.maxBytes}) and
 * more than `maxElements` values. Stops at the first depth, size or element-count violation; lists
 * at most {@link MAX_REPORTED_ISSUES} issues and counts the rest.
 */
export function guardJsonValue(
  input: unknown,
  limits: ArgumentLimits,
  options: GuardJsonValueOptions = {},
): GuardResult {
  const walk = new GuardWalk(limits, options.copy !== false, options.sizeChecked === true);
  const holder: Record<string, unknown> = {};
  walk.admit(input, 0, undefined, '', walk.copying ? holder : undefined);
  walk.run();
  if (walk.issueCount > 0) return { ok: false, issues: capIssues(walk.issues, walk.issueCount) };
  return { ok: true, value: walk.copying ? holder[''] : input };
}

/**
 * A fresh copy of `value`, made of plain objects and arrays, when it is plain JSON that
 * {@link guardJsonValue} with unbounded size and element count would pass: finite numbers, well-formed
 * strings, no forbidden key, no container nested `maxDepth` levels deep, no object whose prototype
 * is not `Object.prototype` or `null`. One recursive walk that checks and copies, without the issue
 * bookkeeping; `undefined` for anything else (an object of another realm included), which
 * `guardJsonValue` then walks to say what is wrong. Reads every member once; a throwing getter or
 * proxy trap throws.
 */
export function copyPlainJson(value: unknown, maxDepth: number): unknown {
  const copy = copyPlain(value, 0, maxDepth);
  return copy === NOT_PLAIN ? undefined : copy;
}

const NOT_PLAIN: unique symbol = Symbol('not plain JSON');

function copyPlain(value: unknown, depth: number, maxDepth: number): unknown {
  switch (typeof value) {
    case 'string':
      return value.isWellFormed() ? value : NOT_PLAIN;
    case 'number':
      return Number.isFinite(value) ? value : NOT_PLAIN;
    case 'boolean':
      return value;
    case 'object':
      if (value === null) return null;
      if (depth >= maxDepth) return NOT_PLAIN;
      return Array.isArray(value)
        ? copyPlainArray(value, depth + 1, maxDepth)
        : copyPlainObject(value, depth + 1, maxDepth);
    default:
      return NOT_PLAIN;
  }
}

function copyPlainArray(source: unknown[], depth: number, maxDepth: number): unknown {
  const length = source.length;
  const copy = new Array<unknown>(length);
  for (let index = 0; index < length; index++) {
    const item = copyPlain(source[index], depth, maxDepth);
    if (item === NOT_PLAIN) return NOT_PLAIN;
    copy[index] = item;
  }
  return copy;
}

function copyPlainObject(source: object, depth: number, maxDepth: number): unknown {
  const prototype = Object.getPrototypeOf(source) as object | null;
  if (prototype !== Object.prototype && prototype !== null) return NOT_PLAIN;
  const record = source as Record<string, unknown>;
  const copy: Record<string, unknown> = {};
  // Own enumerable string keys in the order of `Object.keys`, without building its array.
  for (const key in record) {
    if (!Object.prototype.hasOwnProperty.call(record, key)) continue;
    if (isForbiddenKey(key) || !key.isWellFormed()) return NOT_PLAIN;
    const item = copyPlain(record[key], depth, maxDepth);
    if (item === NOT_PLAIN) return NOT_PLAIN;
    copy[key] = item;
  }
  return copy;
}

type Slots = Record<string | number, unknown>;

/** An array or object still to expand. Pointers are built from the parent chain only when an issue needs one. */
interface Frame {
  readonly source: unknown[] | Record<string, unknown>;
  readonly depth: number;
  readonly parent: Frame | undefined;
  readonly token: string | number;
  /** Its copy (copy mode), where the children go. */
  readonly copy: Slots | undefined;
}

class GuardWalk {
  readonly issues: ValidationIssue[] = [];
  issueCount = 0;
  private readonly stack: Frame[] = [];
  private stopped = false;
  /** Bytes of compact JSON text counted so far. */
  private bytes = 0;
  private elements = 0;
  private readonly maxBytes: number;
  private readonly maxElements: number;

  constructor(
    private readonly limits: ArgumentLimits,
    readonly copying: boolean,
    sizeChecked: boolean,
  ) {
    // Unbounded limits (tool results) are not measured at all.
    this.maxBytes = sizeChecked || limits.maxBytes >= Number.MAX_SAFE_INTEGER ? Infinity : limits.maxBytes;
    this.maxElements = sizeChecked ? Infinity : maxElementsOf(limits);
  }

  run(): void {
    while (this.stack.length > 0 && !this.stopped) this.expand(this.stack.pop()!);
  }

  /** Checks a scalar at once (and stores it in `into`); queues an array or object. */
  admit(
    value: unknown,
    depth: number,
    parent: Frame | undefined,
    token: string | number,
    into: Slots | undefined,
  ): void {
    if (++this.elements > this.maxElements)
      return this.stop(parent, token, `arguments hold more than ${this.maxElements} values`, 'maxElements');
    if (typeof value === 'string') {
      if (!this.addBytes(this.maxBytes === Infinity ? 0 : Buffer.byteLength(value, 'utf8') + 2))
        return this.stop(parent, token, this.sizeMessage(), 'maxBytes');
      if (!value.isWellFormed()) this.report(parent, token, 'string contains a lone surrogate', 'wellFormed');
    } else if (typeof value === 'number') {
      this.bytes += 1;
      if (!Number.isFinite(value)) this.report(parent, token, 'number must be finite', 'finite');
    } else if (typeof value === 'boolean' || value === null) {
      if (!this.addBytes(value === false ? 5 : 4)) return this.stop(parent, token, this.sizeMessage(), 'maxBytes');
    } else {
      const isArray = Array.isArray(value);
      if (!isArray && !isPlainObject(value))
        return this.report(parent, token, `${describe(value)} is not a JSON value`, 'json');
      if (depth >= this.limits.maxDepth)
        return this.stop(parent, token, `nesting deeper than ${this.limits.maxDepth} levels`, 'maxDepth');
      // Brackets, and a comma after every member but the last (an empty container has none).
      const members = isArray ? value.length : 0;
      if (!this.addBytes(2 + Math.max(members - 1, 0))) return this.stop(parent, token, this.sizeMessage(), 'maxBytes');
      const copy: Slots | undefined =
        into === undefined ? undefined : isArray ? (new Array<unknown>(value.length) as unknown as Slots) : {};
      if (into !== undefined) into[token] = copy;
      this.stack.push({ source: value as Frame['source'], depth, parent, token, copy });
      return;
    }
    if (into !== undefined) into[token] = value;
  }

  /** Checks the children of an array or object; nested ones are queued in order. */
  private expand(frame: Frame): void {
    const depth = frame.depth + 1;
    const queued = this.stack.length;
    const source = frame.source;
    if (Array.isArray(source)) {
      for (let index = 0; index < source.length && !this.stopped; index++)
        this.admit(source[index], depth, frame, index, frame.copy);
    } else {
      const keys = Object.keys(source);
      // The commas between members; each key adds its quotes and colon below.
      if (!this.addBytes(Math.max(keys.length - 1, 0)))
        return this.stop(frame.parent, frame.token, this.sizeMessage(), 'maxBytes');
      for (const key of keys) {
        if (this.stopped) break;
        if (isForbiddenKey(key)) this.report(frame, key, `key '${key}' is not allowed`, 'forbiddenKey');
        else if (!key.isWellFormed()) this.report(frame, key, 'key contains a lone surrogate', 'wellFormed');
        else if (!this.addBytes(this.maxBytes === Infinity ? 0 : Buffer.byteLength(key, 'utf8') + 3))
          this.stop(frame, key, this.sizeMessage(), 'maxBytes');
        else this.admit(source[key], depth, frame, key, frame.copy);
      }
    }
    reverseFrom(this.stack, queued);
  }

  /** Adds `count` bytes; false when that passes `maxBytes`. */
  private addBytes(count: number): boolean {
    this.bytes += count;
    return this.bytes <= this.maxBytes;
  }

  private sizeMessage(): string {
    return `arguments exceed ${this.limits.maxBytes} bytes`;
  }

  /**
   * Records an issue (only the first {@link MAX_REPORTED_ISSUES} are kept, the others counted; the walk is bounded by
   * `maxElements`).
   */
  private report(parent: Frame | undefined, token: string | number, message: string, keyword: string): void {
    if (++this.issueCount <= MAX_REPORTED_ISSUES)
      this.issues.push({ pointer: pointerOf(parent, token), message, keyword });
  }

  /** Records an issue that ends the walk. */
  private stop(parent: Frame | undefined, token: string | number, message: string, keyword: string): void {
    this.report(parent, token, message, keyword);
    this.stopped = true;
  }
}

/** The JSON Pointer of child `token` of `parent` ('' for the root). */
function pointerOf(parent: Frame | undefined, token: string | number): string {
  if (parent === undefined) return '';
  const tokens: string[] = [escapePointerToken(token)];
  for (let frame: Frame = parent; frame.parent !== undefined; frame = frame.parent)
    tokens.push(escapePointerToken(frame.token));
  return `/${tokens.reverse().join('/')}`;
}

/** Reverses `items[start..]` in place, so the first child queued is the first expanded. */
function reverseFrom<T>(items: T[], start: number): void {
  for (let left = start, right = items.length - 1; left < right; left++, right--)
    [items[left], items[right]] = [items[right], items[left]];
}

/**
 * A plain object: its prototype is `Object.prototype`, `null`, or the `Object.prototype` of another
 * realm (a `vm` context, a test sandbox, a worker) whose own prototype is `null`.
 */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value) as object | null;
  if (prototype === Object.prototype || prototype === null) return true;
  return (
    Object.getPrototypeOf(prototype) === null &&
    Object.prototype.hasOwnProperty.call(prototype, 'hasOwnProperty') &&
    Object.prototype.hasOwnProperty.call(prototype, 'isPrototypeOf')
  );
}

function describe(value: unknown): string {
  if (typeof value === 'object' && value !== null)
    return `an instance of ${value.constructor?.name ?? 'an unknown class'}`;
  return `a value of type ${typeof value}`;
}
