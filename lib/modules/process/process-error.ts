import { WuweError } from '../../errors/wuwe-error';
import { ToolErrorCategory } from '../../outcome/error-codes';
import { JsonObject } from '../../outcome/json-value';
import { ToolOutcome, toolFailure } from '../../outcome/tool-outcome';
import { hasErrorMarker } from '../../errors/error-marker';

/**
 * Stable codes of {@link ProcessError}.
 *
 * Configuration (thrown at construction): `invalid_policy`, `invalid_root`, `executable_not_found`.
 * Refusals by policy (nothing was started): `invalid_arguments`, `executable_not_allowed`,
 * `cwd_outside_root`, `env_not_allowed`, `argument_not_allowed` (an argument rule refused an
 * option, subcommand or value), `shell_disabled`, `too_large`, `root_replaced` (the root's path
 * leads to another directory than the one recorded at construction), `root_unavailable` (nothing is
 * at the root's path any more).
 * Failures (audited as `failed` when nothing was started): `cwd_not_found` (missing, not a
 * directory, or gone before the start), `cwd_not_accessible` (the OS refused to open it),
 * `executable_unavailable` (the configured file is gone or can no longer be executed),
 * `spawn_failed` (the OS could not start a process, e.g. `EAGAIN`; the errno is in `details.errno`),
 * `timeout`, `cancelled`. Messages and details name paths relative to the root only.
 */
export type ProcessErrorCode =
  | 'invalid_policy'
  | 'invalid_root'
  | 'executable_not_found'
  | 'invalid_arguments'
  | 'executable_not_allowed'
  | 'cwd_outside_root'
  | 'env_not_allowed'
  | 'argument_not_allowed'
  | 'shell_disabled'
  | 'too_large'
  | 'root_replaced'
  | 'root_unavailable'
  | 'cwd_not_found'
  | 'cwd_not_accessible'
  | 'executable_unavailable'
  | 'spawn_failed'
  | 'timeout'
  | 'cancelled';

/** How a {@link ProcessErrorCode} appears in a tool outcome and in the audit log. */
export interface ProcessErrorOutcome {
  readonly outcomeCode: string;
  readonly category: ToolErrorCategory;
  /** True when policy refused the run before anything was started (audited as `refused`). */
  readonly refusal: boolean;
}

const refused = (outcomeCode: string, category: ToolErrorCategory): ProcessErrorOutcome => ({
  outcomeCode,
  category,
  refusal: true,
});
const failed = (outcomeCode: string, category: ToolErrorCategory): ProcessErrorOutcome => ({
  outcomeCode,
  category,
  refusal: false,
});

/** The outcome code and category of each {@link ProcessErrorCode}. */
export const PROCESS_ERROR_OUTCOMES: Readonly<Record<ProcessErrorCode, ProcessErrorOutcome>> = Object.freeze({
  invalid_policy: failed('tool_error', 'internal'),
  invalid_root: failed('tool_error', 'internal'),
  executable_not_found: failed('tool_error', 'internal'),
  invalid_arguments: refused('invalid_arguments', 'validation'),
  executable_not_allowed: refused('permission_denied', 'permission'),
  cwd_outside_root: refused('permission_denied', 'permission'),
  env_not_allowed: refused('permission_denied', 'permission'),
  argument_not_allowed: refused('permission_denied', 'permission'),
  shell_disabled: refused('permission_denied', 'permission'),
  too_large: refused('permission_denied', 'permission'),
  root_replaced: refused('permission_denied', 'permission'),
  root_unavailable: refused('unavailable', 'unavailable'),
  cwd_not_found: failed('not_found', 'not_found'),
  cwd_not_accessible: failed('permission_denied', 'permission'),
  executable_unavailable: failed('unavailable', 'unavailable'),
  spawn_failed: failed('tool_error', 'internal'),
  timeout: failed('timeout', 'timeout'),
  cancelled: failed('cancelled', 'cancelled'),
});

const PROCESS_ERROR_MARKER = Symbol.for('wuwe.error.ProcessError');

/**
 * An error of the Process toolkit. Thrown at construction for a bad configuration; inside a call
 * it becomes a failure outcome ({@link ProcessError.toOutcome}) and never escapes `invokeTool`.
 */
export class ProcessError extends WuweError<ProcessErrorCode> {
  /**
   * What went wrong in the host's words (an OS error message, which may name host paths): for the audit log only, never
   * sent to the model.
   */
  readonly hostDetail?: string;
  private readonly [PROCESS_ERROR_MARKER] = true;

  /** True when `value` is a ProcessError, from this or another copy of the package. */
  static override isInstance(value: unknown): value is ProcessError {
    return hasErrorMarker(value, PROCESS_ERROR_MARKER);
  }

  constructor(
    code: ProcessErrorCode,
    message: string,
    /** Structured detail sent to the model with the failure (e.g. partial output of a timed-out run). */
    readonly details?: JsonObject,
    options?: { cause?: unknown; hostDetail?: string },
  ) {
    super(code, message, options);
    if (options?.hostDetail !== undefined) this.hostDetail = options.hostDetail;
  }

  /** True when policy refused the run before anything was started. */
  get refusal(): boolean {
    return PROCESS_ERROR_OUTCOMES[this.code].refusal;
  }

  /** The failure outcome the model sees: a standard code, with this error's code as `details.reason`. */
  toOutcome(): ToolOutcome {
    const mapped = PROCESS_ERROR_OUTCOMES[this.code];
    return toolFailure({
      code: mapped.outcomeCode,
      category: mapped.category,
      message: this.message,
      retryable: false,
      details: { reason: this.code, ...this.details },
    });
  }
}
