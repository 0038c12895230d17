import { isInstanceOf, messageOf } from '../../errors/message-of';
import { errnoOf } from '../filesystem/errno-mapping';
import { FilesystemError } from '../filesystem/filesystem-error';
import { ProcessError } from './process-error';

const MISSING = new Set(['ENOENT', 'ENOTDIR']);
const DENIED = new Set(['EACCES', 'EPERM']);

/**
 * The {@link ProcessError} for a working directory (`display`, relative to the root) that could not
 * be resolved or opened: outside the root through a link, missing or not a directory, refused by the
 * OS, or another error (`spawn_failed` with the errno only). Messages name `display`, never a host
 * path; the original message is kept as `hostDetail` for the audit log.
 */
export function workingDirectoryError(error: unknown, display: string): ProcessError {
  if (ProcessError.isInstance(error)) return error;
  const hostDetail = messageOf(error);
  if (FilesystemError.isInstance(error)) {
    if (error.code === 'path_outside_root' || error.code === 'symlink_escape')
      return new ProcessError(
        'cwd_outside_root',
        `The working directory '${display}' leads outside the root; nothing was started.`,
        { cwd: display },
        { hostDetail },
      );
    if (error.code === 'root_replaced' || error.code === 'root_unavailable')
      return new ProcessError(error.code, error.message, undefined, { hostDetail });
    if (error.refusal)
      return new ProcessError('invalid_arguments', `Working directory refused: ${error.message}`, undefined, {
        hostDetail,
      });
    if (error.code === 'not_found' || error.code === 'not_a_directory') return notFound(display, hostDetail);
    if (error.code === 'os_permission_denied') return notAccessible(display, hostDetail);
  }
  const errno = errnoOf(error) ?? errnoOf(isInstanceOf(error, Error) ? error.cause : undefined);
  if (errno !== undefined && MISSING.has(errno)) return notFound(display, hostDetail);
  if (errno !== undefined && DENIED.has(errno)) return notAccessible(display, hostDetail);
  return unexpected(errno, hostDetail);
}

/**
 * The {@link ProcessError} for a spawn that failed with `errno`: the executable gone or no longer
 * executable (`executable_unavailable`), arguments and environment over the system's limit
 * (`too_large`), or another failure (`spawn_failed`). Messages name the allow-list name only.
 */
export function spawnError(errno: string | undefined, executable: string, hostDetail: string): ProcessError {
  const code = errno ?? 'unknown';
  if (['ENOENT', 'ENOTDIR', 'EACCES', 'EPERM', 'ENOEXEC', 'ETXTBSY', 'ELOOP', 'EISDIR', 'ELIBBAD'].includes(code))
    return new ProcessError(
      'executable_unavailable',
      `The executable '${executable}' could not be started (${code}); nothing ran.`,
      { errno: code },
      { hostDetail },
    );
  if (code === 'E2BIG')
    return new ProcessError(
      'too_large',
      'The arguments and environment exceed what the system accepts (E2BIG); nothing ran.',
      { errno: code },
      { hostDetail },
    );
  return unexpected(errno, hostDetail);
}

/** `spawn_failed` for an error no rule covers: the model sees the errno (or the error's kind) only. */
export function unexpected(errno: string | undefined, hostDetail: string): ProcessError {
  const code = errno ?? 'unknown';
  return new ProcessError(
    'spawn_failed',
    `The run could not be started (${code}); nothing ran.`,
    { errno: code },
    { hostDetail },
  );
}

function notFound(display: string, hostDetail: string): ProcessError {
  return new ProcessError(
    'cwd_not_found',
    `The working directory '${display}' does not exist or is not a directory; nothing was started.`,
    { cwd: display },
    { hostDetail },
  );
}

function notAccessible(display: string, hostDetail: string): ProcessError {
  return new ProcessError(
    'cwd_not_accessible',
    `The working directory '${display}' cannot be opened (permission denied); nothing was started.`,
    { cwd: display },
    { hostDetail },
  );
}
