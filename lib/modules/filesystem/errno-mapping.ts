import { FilesystemError, FilesystemErrorCode } from './filesystem-error';

const ERRNO_CODES: Readonly<Record<string, FilesystemErrorCode>> = {
  ENOENT: 'not_found',
  EEXIST: 'already_exists',
  ENOTEMPTY: 'not_empty',
  ENOTDIR: 'not_a_directory',
  EISDIR: 'not_a_regular_file',
  ELOOP: 'symlink_escape',
  ENAMETOOLONG: 'path_too_long',
  EACCES: 'os_permission_denied',
  EPERM: 'os_permission_denied',
  ENXIO: 'not_a_regular_file',
};

/** The errno code of a Node.js system error, if it is one. */
export function errnoOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Turns a system error into a {@link FilesystemError} with a message naming the caller's path;
 * a `FilesystemError` passes through unchanged, an unknown error becomes `io_error`.
 */
export function toFilesystemError(error: unknown, displayPath: string | undefined, action: string): FilesystemError {
  if (error instanceof FilesystemError) return error;
  const errno = errnoOf(error) ?? '';
  const code = ERRNO_CODES[errno] ?? 'io_error';
  const where = displayPath === undefined ? '' : ` '${displayPath}'`;
  const reason = code === 'io_error' ? ` (${errno || String(error)})` : ` (${errno})`;
  return new FilesystemError(code, `Cannot ${action}${where}: ${code.replace(/_/g, ' ')}${reason}.`, displayPath, { cause: error });
}
