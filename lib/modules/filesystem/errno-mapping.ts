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
  EROFS: 'os_permission_denied',
};

/** The errno code of a Node.js system error, if it is one. */
export function errnoOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Turns a system error into a {@link FilesystemError} with a message naming only the caller's
 * (root-relative) path, the action and the errno code; a `FilesystemError` passes through unchanged,
 * an errno the toolkit does not expect becomes `io_error`. The system error's own message is never
 * used: it carries host paths (the root's location, `/proc/self/fd/N/...`). It is kept as `cause`,
 * which no outcome or audit entry shows.
 */
export function toFilesystemError(error: unknown, displayPath: string | undefined, action: string): FilesystemError {
  if (FilesystemError.isInstance(error)) return error;
  const errno = errnoOf(error);
  const code = (errno === undefined ? undefined : ERRNO_CODES[errno]) ?? 'io_error';
  const where = displayPath === undefined ? '' : ` '${displayPath}'`;
  const reason = errno !== undefined && /^E[A-Z0-9]+$/.test(errno) ? errno : 'unexpected error';
  return new FilesystemError(code, `Cannot ${action}${where}: ${code.replace(/_/g, ' ')} (${reason}).`, displayPath, {
    cause: error,
  });
}
