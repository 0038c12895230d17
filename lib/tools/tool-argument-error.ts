import { WuweError } from '../errors/wuwe-error';
import { ArgumentRejectionCode } from '../validation/decode-arguments';
import { ValidationIssue } from '../validation/validation-issue';
import { hasErrorMarker } from '../errors/error-marker';

const TOOL_ARGUMENT_ERROR_MARKER = Symbol.for('wuwe.error.ToolArgumentError');

/** Model arguments that were refused: not JSON (`invalid_json`) or not matching the schema (`invalid_arguments`). */
export class ToolArgumentError extends WuweError<ArgumentRejectionCode> {
  private readonly [TOOL_ARGUMENT_ERROR_MARKER] = true;

  /** True when `value` is a ToolArgumentError, from this or another copy of the package. */
  static override isInstance(value: unknown): value is ToolArgumentError {
    return hasErrorMarker(value, TOOL_ARGUMENT_ERROR_MARKER);
  }

  constructor(
    code: ArgumentRejectionCode,
    readonly toolName: string,
    /** Every issue, each located by JSON Pointer. */
    readonly issues: readonly ValidationIssue[],
  ) {
    super(code, `Invalid arguments for tool '${toolName}': ${formatIssues(issues)}`);
  }
}

/** One line per issue: `/pointer: message`. */
export function formatIssues(issues: readonly ValidationIssue[]): string {
  return issues.map((issue) => `${issue.pointer === '' ? '(root)' : issue.pointer}: ${issue.message}`).join('; ');
}
