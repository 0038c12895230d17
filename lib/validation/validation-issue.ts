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
  const tokens = pointerTokens(pointer);
  if (tokens === undefined) return undefined;
  let current: unknown = value;
  for (const token of tokens) {
    if (typeof current !== 'object' || current === null) return undefined;
    if (!Object.prototype.hasOwnProperty.call(current, token)) return undefined;
    current = (current as Record<string, unknown>)[token];
  }
  return current;
}

/** Unescaped reference tokens of pointers resolved before (contracts resolve the same few on every call). */
const parsedPointers = new Map<string, readonly string[]>();
const MAX_PARSED_POINTERS = 256;
const MAX_CACHED_POINTER_LENGTH = 1024;

/** The unescaped reference tokens of a non-empty pointer; `undefined` when it does not start with `/`. */
function pointerTokens(pointer: string): readonly string[] | undefined {
  if (!pointer.startsWith('/')) return undefined;
  let tokens = parsedPointers.get(pointer);
  if (tokens === undefined) {
    tokens = pointer
      .slice(1)
      .split('/')
      .map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (pointer.length > MAX_CACHED_POINTER_LENGTH) return tokens;
    if (parsedPointers.size >= MAX_PARSED_POINTERS) parsedPointers.clear();
    parsedPointers.set(pointer, tokens);
  }
  return tokens;
}

/** At most this many issues are reported for one value; the rest are counted in one last `moreIssues` issue. */
export const MAX_REPORTED_ISSUES = 20;

/**
 * The issue that ends a capped list: `N more issues not listed` at the root, keyword `moreIssues`.
 * `more` is how many issues were found beyond the ones listed.
 */
export function moreIssues(more: number): ValidationIssue {
  return { pointer: '', message: `${more} more ${more === 1 ? 'issue' : 'issues'} not listed`, keyword: 'moreIssues' };
}

/**
 * The first {@link MAX_REPORTED_ISSUES} issues, followed by a {@link moreIssues} count of the rest when there are more.
 */
export function capIssues(
  issues: readonly ValidationIssue[],
  total: number = issues.length,
): readonly ValidationIssue[] {
  if (total <= MAX_REPORTED_ISSUES) return issues;
  return [...issues.slice(0, MAX_REPORTED_ISSUES), moreIssues(total - MAX_REPORTED_ISSUES)];
}
