import { WuweError } from '../../errors/wuwe-error';
import { ToolErrorCategory } from '../../outcome/error-codes';
import { JsonObject } from '../../outcome/json-value';
import { ToolOutcome, toolFailure } from '../../outcome/tool-outcome';
import { hasErrorMarker } from '../../errors/error-marker';

/**
 * Stable codes of {@link FilesystemError}.
 *
 * Configuration (thrown at construction): `invalid_root`, `invalid_policy`.
 * Refusals by policy (nothing was touched): `invalid_arguments`, `invalid_path`, `path_too_long`,
 * `path_outside_root`, `symlink_escape`, `hard_link`, `not_a_regular_file`, `too_large`,
 * `operation_not_allowed`, `read_only`, `approval_denied`, `root_replaced` (the root's path leads to
 * another directory than the one recorded at construction), `root_unavailable` (nothing is at the
 * root's path any more).
 * Operational failures: `not_found`, `already_exists`, `not_empty`, `not_a_directory`,
 * `os_permission_denied`, `cancelled`, `io_error` (a system error the toolkit does not map; the message
 * names its errno code and the caller's root-relative path, never a host path).
 */
export type FilesystemErrorCode =
  | 'invalid_root'
  | 'invalid_policy'
  | 'invalid_arguments'
  | 'invalid_path'
  | 'path_too_long'
  | 'path_outside_root'
  | 'symlink_escape'
  | 'hard_link'
  | 'not_a_regular_file'
  | 'too_large'
  | 'operation_not_allowed'
  | 'read_only'
  | 'approval_denied'
  | 'root_replaced'
  | 'root_unavailable'
  | 'not_found'
  | 'already_exists'
  | 'not_empty'
  | 'not_a_directory'
  | 'os_permission_denied'
  | 'cancelled'
  | 'io_error';

/** How a {@link FilesystemErrorCode} appears in a tool outcome and in the audit log. */
export interface FilesystemErrorOutcome {
  /** The outcome's error code (a standard tool error code). */
  readonly outcomeCode: string;
  readonly category: ToolErrorCategory;
  /** True when policy refused the call before anything was touched (audited as `refused`). */
  readonly refusal: boolean;
}

const refused = (outcomeCode: string, category: ToolErrorCategory): FilesystemErrorOutcome => ({
  outcomeCode,
  category,
  refusal: true,
});
const failed = (outcomeCode: string, category: ToolErrorCategory): FilesystemErrorOutcome => ({
  outcomeCode,
  category,
  refusal: false,
});

/** The outcome code and category of each {@link FilesystemErrorCode}. */
export const FILESYSTEM_ERROR_OUTCOMES: Readonly<Record<FilesystemErrorCode, FilesystemErrorOutcome>> = Object.freeze({
  invalid_root: failed('tool_error', 'internal'),
  invalid_policy: failed('tool_error', 'internal'),
  invalid_arguments: refused('invalid_arguments', 'validation'),
  invalid_path: refused('invalid_arguments', 'validation'),
  path_too_long: refused('invalid_arguments', 'validation'),
  path_outside_root: refused('permission_denied', 'permission'),
  symlink_escape: refused('permission_denied', 'permission'),
  hard_link: refused('permission_denied', 'permission'),
  not_a_regular_file: refused('permission_denied', 'permission'),
  too_large: refused('permission_denied', 'permission'),
  operation_not_allowed: refused('permission_denied', 'permission'),
  read_only: refused('permission_denied', 'permission'),
  approval_denied: refused('approval_denied', 'permission'),
  root_replaced: refused('permission_denied', 'permission'),
  root_unavailable: refused('unavailable', 'unavailable'),
  not_found: failed('not_found', 'not_found'),
  already_exists: failed('conflict', 'conflict'),
  not_empty: failed('conflict', 'conflict'),
  not_a_directory: failed('precondition_failed', 'precondition'),
  os_permission_denied: failed('permission_denied', 'permission'),
  cancelled: failed('cancelled', 'cancelled'),
  io_error: failed('tool_error', 'internal'),
});

const FILESYSTEM_ERROR_MARKER = Symbol.for('wuwe.error.FilesystemError');

/**
 * An error of the Filesystem toolkit. Thrown at construction for a bad configuration; inside a
 * call it is turned into a failure outcome (see {@link FilesystemError.toOutcome}) and never
 * escapes `invokeTool`.
 */
export class FilesystemError extends WuweError<FilesystemErrorCode> {
  private readonly [FILESYSTEM_ERROR_MARKER] = true;

  /** True when `value` is a FilesystemError, from this or another copy of the package. */
  static override isInstance(value: unknown): value is FilesystemError {
    return hasErrorMarker(value, FILESYSTEM_ERROR_MARKER);
  }

  constructor(
    code: FilesystemErrorCode,
    message: string,
    /** The path as the caller gave it, relative to the root, when there is one. */
    readonly path?: string,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }

  /** True when policy refused the call before anything was touched. */
  get refusal(): boolean {
    return FILESYSTEM_ERROR_OUTCOMES[this.code].refusal;
  }

  /** The failure outcome the model sees: a standard code, with this error's code as `details.reason`. */
  toOutcome(): ToolOutcome {
    const mapped = FILESYSTEM_ERROR_OUTCOMES[this.code];
    const details: JsonObject =
      this.path === undefined ? { reason: this.code } : { reason: this.code, path: this.path };
    return toolFailure({
      code: mapped.outcomeCode,
      category: mapped.category,
      message: this.message,
      retryable: false,
      details,
    });
  }
}
