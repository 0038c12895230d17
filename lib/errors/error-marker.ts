/**
 * True when `value` is an object carrying `marker` (a `Symbol.for` key every copy of wuwe shares), so
 * an error class is recognised even when it comes from another copy of the package. Never throws,
 * even on a hostile proxy.
 */
export function hasErrorMarker(value: unknown, marker: symbol): boolean {
  try {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
  } catch {
    return false;
  }
}
