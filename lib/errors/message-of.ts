/** `value instanceof type`, false when the check itself throws (a hostile proxy). */
export function isInstanceOf<T>(value: unknown, type: abstract new (...args: any[]) => T): value is T {
  try {
    return value instanceof type;
  } catch {
    return false;
  }
}

/** The message of anything thrown; never throws itself (a null-prototype object, a throwing getter or `toString`). */
export function messageOf(error: unknown): string {
  try {
    if (isInstanceOf(error, Error)) return String(error.message);
    return String(error);
  } catch {
    try {
      return Object.prototype.toString.call(error);
    } catch {
      return 'a value that cannot be described was thrown';
    }
  }
}
