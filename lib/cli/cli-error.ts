import { hasErrorMarker } from '../errors/error-marker';
import { WuweError } from '../errors/wuwe-error';

/**
 * Stable codes of {@link CliError}, each with its process exit code:
 *
 * - `usage` (2): the command line is wrong (unknown command or option, a missing or malformed argument).
 * - `not_found` (3): the run, call, approval or store named does not exist.
 * - `conflict` (4): the request contradicts the stored state (a hash that does not match the stored
 *   arguments, an approval already decided the other way, a run that cannot be resumed).
 * - `failed` (1): anything else that went wrong (the store could not be read, the agent module failed), among
 *   them a stored record that does not match its hash chain (`record_tampered`) or has no record's shape
 *   (`record_invalid`), and a record `wuwe audit verify` finds unsound.
 */
export type CliErrorCode = 'usage' | 'not_found' | 'conflict' | 'failed';

/** Process exit codes of the `wuwe` command line. */
export const CLI_EXIT_CODES: Readonly<Record<'ok' | CliErrorCode, number>> = Object.freeze({
  ok: 0,
  failed: 1,
  usage: 2,
  not_found: 3,
  conflict: 4,
});

const CLI_ERROR_MARKER = Symbol.for('wuwe.error.CliError');

/** An expected failure of a `wuwe` command: reported as one line on stderr, without a stack trace. */
export class CliError extends WuweError<CliErrorCode> {
  private readonly [CLI_ERROR_MARKER] = true;

  /** True when `value` is a CliError, from this or another copy of the package. */
  static override isInstance(value: unknown): value is CliError {
    return hasErrorMarker(value, CLI_ERROR_MARKER);
  }

  constructor(code: CliErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }

  /** The process exit code of this error. */
  get exitCode(): number {
    return CLI_EXIT_CODES[this.code];
  }
}
