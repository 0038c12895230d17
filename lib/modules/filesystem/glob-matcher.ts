/**
 * Compiles a name pattern into a predicate on entry names. `glob`: `*` any run of characters, `?`
 * one character, everything else literal (no `/`, no classes). `substring`: the name contains the
 * pattern. Both are case-sensitive.
 */
export function compileNameMatcher(pattern: string, mode: 'glob' | 'substring'): (name: string) => boolean {
  if (mode === 'substring') return (name) => name.includes(pattern);
  let source = '';
  for (const character of pattern) {
    if (character === '*') source += '.*';
    else if (character === '?') source += '.';
    else source += character.replace(/[\\^$.|+()[\]{}]/g, '\\$&');
  }
  const expression = new RegExp(`^${source}$`, 'su');
  return (name) => expression.test(name);
}
