/**
 * Compiles a name pattern into a predicate on entry names. `glob`: `*` any run of characters, `?`
 * one character (a whole code point), everything else literal (no `/`, no classes). `substring`:
 * the name contains the pattern. Both are case-sensitive.
 *
 * Globs are matched by a two-pointer scan that backtracks only to the last `*`, so a call takes at
 * most O(pattern × name) steps whatever the pattern. (A regular expression built from the pattern
 * backtracks exponentially on `*a*a*…*b` against a long name of `a`s, and a synchronous match cannot
 * be interrupted by a timeout or an abort signal.)
 */
export function compileNameMatcher(pattern: string, mode: 'glob' | 'substring'): (name: string) => boolean {
  if (mode === 'substring') return (name) => name.includes(pattern);
  const glob = Array.from(pattern);
  return (name) => matchGlob(glob, Array.from(name));
}

function matchGlob(pattern: readonly string[], name: readonly string[]): boolean {
  let p = 0;
  let n = 0;
  let star = -1;
  let resume = 0;
  while (n < name.length) {
    if (p < pattern.length && pattern[p] === '*') {
      star = p;
      resume = n;
      p += 1;
    } else if (p < pattern.length && (pattern[p] === '?' || pattern[p] === name[n])) {
      p += 1;
      n += 1;
    } else if (star >= 0) {
      p = star + 1;
      resume += 1;
      n = resume;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === '*') p += 1;
  return p === pattern.length;
}
