import * as path from 'node:path';
import { FilesystemError } from './filesystem-error';

/** Longest accepted path, in UTF-8 bytes (Linux `PATH_MAX`). */
export const MAX_PATH_BYTES = 4096;
/** Longest accepted path component, in UTF-8 bytes (`NAME_MAX` of common filesystems). */
export const MAX_PATH_COMPONENT_BYTES = 255;

/** How {@link splitRelativePath} treats non-portable spellings. */
export interface PathRuleOptions {
  /** Accept `\` as an ordinary character of a name (it is one on POSIX). @default false */
  readonly allowBackslash?: boolean;
}

/** A drive-letter form (`C:`, `C:\x`, `c:/x`): a path that means something else on Windows. */
const DRIVE_LETTER = /^[A-Za-z]:/;
/** A UTF-16 surrogate not part of a pair: no file name can hold it (it would become U+FFFD). */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** True when `text` holds a lone UTF-16 surrogate (not well-formed Unicode). */
export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}

/**
 * Checks a caller-given path and splits it into components relative to the root. Pure: it
 * touches no filesystem.
 *
 * Refuses, with a {@link FilesystemError}: a value that is not a string, a NUL byte, a lone UTF-16
 * surrogate, a backslash (unless `allowBackslash`) and a leading drive letter (`C:`) (`invalid_path`);
 * more than {@link MAX_PATH_BYTES} bytes or a component of more than {@link MAX_PATH_COMPONENT_BYTES}
 * bytes (`path_too_long`); an absolute path and any `..` segment (`path_outside_root`). Empty, `.`
 * and `./` name the root itself (no components).
 */
export function splitRelativePath(
  value: unknown,
  argumentName = 'path',
  options: PathRuleOptions = {},
): readonly string[] {
  if (typeof value !== 'string')
    throw new FilesystemError('invalid_path', `'${argumentName}' must be a string path relative to the root.`);
  if (value.includes('\0'))
    throw new FilesystemError('invalid_path', `'${argumentName}' contains a NUL byte.`, printable(value));
  if (hasLoneSurrogate(value))
    throw new FilesystemError(
      'invalid_path',
      `'${argumentName}' contains a lone UTF-16 surrogate; paths must be well-formed Unicode.`,
      printable(value),
    );
  if (Buffer.byteLength(value, 'utf8') > MAX_PATH_BYTES)
    throw new FilesystemError(
      'path_too_long',
      `'${argumentName}' is longer than ${MAX_PATH_BYTES} bytes.`,
      printable(value),
    );
  if (DRIVE_LETTER.test(value))
    throw new FilesystemError(
      'invalid_path',
      `'${argumentName}' starts with a drive letter; give a path relative to the root with '/' separators.`,
      printable(value),
    );
  if (options.allowBackslash !== true && value.includes('\\'))
    throw new FilesystemError(
      'invalid_path',
      `'${argumentName}' contains a backslash; separate components with '/'.`,
      printable(value),
    );
  if (path.isAbsolute(value))
    throw new FilesystemError(
      'path_outside_root',
      `'${argumentName}' is absolute; give a path relative to the root (for example 'notes/today.txt').`,
      printable(value),
    );
  const components: string[] = [];
  for (const component of value.split('/')) {
    if (component === '' || component === '.') continue;
    if (component === '..')
      throw new FilesystemError(
        'path_outside_root',
        `'${argumentName}' contains a '..' segment; paths cannot leave the root.`,
        value,
      );
    if (Buffer.byteLength(component, 'utf8') > MAX_PATH_COMPONENT_BYTES)
      throw new FilesystemError(
        'path_too_long',
        `'${argumentName}' has a component longer than ${MAX_PATH_COMPONENT_BYTES} bytes.`,
        printable(value),
      );
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

/** A caller-given string fit for messages: NUL and lone surrogates spelled out, at most 200 characters. */
export function printable(value: string): string {
  const escaped = value
    .replace(/\0/g, '\\0')
    .replace(/[\uD800-\uDFFF]/gu, (unit) => `\\u${unit.charCodeAt(0).toString(16)}`);
  return escaped.length > 200 ? `${escaped.slice(0, 200)}...` : escaped;
}
