import { CommanderError } from 'commander';
import { RunStoreError } from '../durable/run-store-error';
import { WuweError } from '../errors/wuwe-error';
import { CLI_EXIT_CODES, CliError, CliErrorCode } from './cli-error';
import { usageErrorKind, UsageErrorKind } from './usage-error';

const NOT_FOUND = new Set([
  'store_empty',
  'run_not_found',
  'call_not_found',
  'call_not_admitted',
  'approval_not_found',
]);
const CONFLICT = new Set([
  'approval_mismatch',
  'lease_held',
  'run_exists',
  'run_conflict',
  'call_conflict',
  'outcome_conflict',
  'idempotency_conflict',
  'projection_conflict',
]);
/**
 * A stored record the store refused to read: it does not match its hash chain, has no record's shape, or is signed
 * with a record key the command was not given. All are `failed` (exit 1), the code `wuwe audit verify` exits with
 * for a record that does not verify.
 */
const UNSOUND_RECORD = new Set(['record_tampered', 'record_invalid', 'record_key_missing']);

/** How a failed command is reported: its class of failure, exit code, message and whether it was expected. */
export interface FailureReport {
  readonly code: CliErrorCode;
  readonly exitCode: number;
  /**
   * The error's own code (`run_not_found`, `approval_mismatch`, ...); `usage` for a command line the parser refused.
   */
  readonly errorCode: string;
  /** For a command line the parser refused: what was wrong with it. */
  readonly usage?: UsageErrorKind;
  readonly message: string;
  /** False for errors wuwe does not raise itself (bugs, an agent module's own failure): those get their stack. */
  readonly expected: boolean;
}

/** Classifies an error thrown by a command into an exit code. */
export function failureOf(error: unknown): FailureReport {
  if (error instanceof CommanderError) {
    const code: CliErrorCode = 'usage';
    return {
      code,
      exitCode: CLI_EXIT_CODES[code],
      errorCode: code,
      usage: usageErrorKind(error),
      message: error.message.replace(/^error: /, ''),
      expected: true,
    };
  }
  if (WuweError.isInstance(error)) {
    const code: CliErrorCode = CliError.isInstance(error)
      ? error.code
      : NOT_FOUND.has(error.code)
        ? 'not_found'
        : CONFLICT.has(error.code)
          ? 'conflict'
          : 'failed';
    return { code, exitCode: CLI_EXIT_CODES[code], errorCode: error.code, message: messageOf(error), expected: true };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'failed', exitCode: CLI_EXIT_CODES.failed, errorCode: 'unexpected', message, expected: false };
}

/** The error's message; for a stored record refused as unsound, with what it means and how to inspect it. */
function messageOf(error: WuweError<string>): string {
  if (!RunStoreError.isInstance(error) || !UNSOUND_RECORD.has(error.code) || error.runId === undefined)
    return error.message;
  if (error.code === 'record_key_missing')
    return `the stored record of run ${error.runId} is signed with record key '${error.recordKeyId ?? '?'}', which was not given, so it was not read: pass --key-file <file> holding that key (${error.message})`;
  const what = error.code === 'record_tampered' ? 'was changed outside the store' : 'is malformed';
  return `the stored record of run ${error.runId} ${what}, so it was refused: ${error.message}; inspect it with: wuwe audit verify ${error.runId}`;
}
