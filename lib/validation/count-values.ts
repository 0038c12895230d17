/**
 * True when a JSON value holds at most `limit` values (arrays, objects and scalars, the root
 * included). Iterative, and it stops as soon as the count passes `limit`, so it costs at most
 * `limit` steps whatever the size of the value.
 * @internal
 */
export function countValuesAtMost(value: unknown, limit: number): boolean {
  let count = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (++count > limit) return false;
    if (typeof next !== 'object' || next === null) continue;
    const children = Array.isArray(next) ? next : Object.values(next as Record<string, unknown>);
    if (count + pending.length + children.length > limit) return false;
    for (const child of children) pending.push(child);
  }
  return true;
}
