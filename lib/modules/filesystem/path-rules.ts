import * as path from 'node:path';
import { FilesystemError } from './filesystem-error';

/** Longest accepted path, in UTF-8 bytes (Linux `PATH_MAX`). */
export const MAX_PATH_BYTES = 4096;
/** Longest accepted path component, in UTF-8 bytes (`NAME_MAX` of common filesystems). */
export const MAX_PATH_COMPONENT_BYTES = 255;

/**
 * Checks a caller-given path and splits it into components relative to the root. Pure: it
 * touches no filesystem.
 *
 * Refuses, with a {@link FilesystemError}: a value that is not a string (`invalid_path`), a NUL
 * byte (`invalid_path`), more than {@link MAX_PATH_BYTES} bytes or a component of more than
 * {@link MAX_PATH_COMPONENT_BYTES} bytes (`path_too_long`), an absolute path and any `..`
 * segment (`path_outside_root`). Empty, `.` and `./` name the root itself (no components).
 */
export function splitRelativePath(value: unknown, argumentName = 'path'): readonly string[] {
  if (typeof value !== 'string') throw new FilesystemError('invalid_path', `'${argumentName}' must be a string path relative to the root.`);
  if (value.includes('\0')) throw new FilesystemError('invalid_path', `'${argumentName}' contains a NUL byte.`, printable(value));
  if (Buffer.byteLength(value, 'utf8') > MAX_PATH_BYTES)
    throw new FilesystemError('path_too_long', `'${argumentName}' is longer than ${MAX_PATH_BYTES} bytes.`, printable(value));
  if (path.isAbsolute(value))
    throw new FilesystemError(
      'path_outside_root',
      `'${argumentName}' is absolute; give a path relative to the root (for example 'notes/today.txt').`,
      value,
    );
  const components: string[] = [];
  for (const component of value.split('/')) {
    if (component === '' || component === '.') continue;
    if (component === '..') throw new FilesystemError('path_outside_root', `'${argumentName}' contains a '..' segment; paths cannot leave the root.`, value);
    if (Buffer.byteLength(component, 'utf8') > MAX_PATH_COMPONENT_BYTES)
      throw new FilesystemError('path_too_long', `'${argumentName}' has a component longer than ${MAX_PATH_COMPONENT_BYTES} bytes.`, printable(value));
    components.push(component);
  }
  return components;
}

/**
 * True when `candidate` (an absolute, resolved path) is `root` or lies beneath it. Compares whole
 * components, so `/data-evil` is not inside `/data`.
 */
export function isInsideRoot(root: string, candidate: string): boolean {
  if (candidate === root) return true;
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  return candidate.startsWith(prefix);
}

/** The path relative to the root, `.` for the root itself, for messages and results. */
export function relativeToRoot(root: string, absolute: string): string {
  const relative = path.relative(root, absolute);
  return relative === '' ? '.' : relative;
}

function printable(value: string): string {
  const escaped = value.replace(/\0/g, '\\0');
  return escaped.length > 200 ? `${escaped.slice(0, 200)}...` : escaped;
}
