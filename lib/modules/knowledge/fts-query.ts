/** How the terms of a query combine in an FTS5 MATCH expression. */
export type FtsTermMode = 'any' | 'all';

/** Options of {@link toFtsMatchQuery}. */
export interface FtsQueryOptions {
  /**
   * `any` joins terms with OR (bm25 still ranks passages matching more terms first); `all` requires every term.
   * @default 'any'
   */
  readonly mode?: FtsTermMode;
  /** Terms beyond this count are dropped. @default 32 */
  readonly maxTerms?: number;
  /** Longer terms are cut to this many characters. @default 64 */
  readonly maxTermLength?: number;
}

const TERM = /[\p{L}\p{N}\p{M}]+/gu;

/**
 * Turns free text (for example a model's query) into a safe FTS5 MATCH expression: only runs of
 * letters and digits survive, each one becomes a double-quoted string, so FTS5 operators and syntax
 * in the input (`"`, `NEAR(`, `AND`, `col:`, `*`, `^`) are searched as plain words and never parsed.
 * Returns `undefined` when nothing searchable is left.
 */
export function toFtsMatchQuery(text: string, options: FtsQueryOptions = {}): string | undefined {
  const maxTerms = options.maxTerms ?? 32;
  const maxTermLength = options.maxTermLength ?? 64;
  const seen = new Set<string>();
  const terms: string[] = [];
  for (const match of text.normalize('NFC').matchAll(TERM)) {
    const term = match[0].slice(0, maxTermLength).toLowerCase();
    if (seen.has(term)) continue;
    seen.add(term);
    terms.push(`"${term.replace(/"/g, '""')}"`);
    if (terms.length >= maxTerms) break;
  }
  if (terms.length === 0) return undefined;
  return terms.join(options.mode === 'all' ? ' AND ' : ' OR ');
}
