import { WuweError } from '../errors/wuwe-error';
import { ArgumentRejectionCode } from '../validation/decode-arguments';
import { ValidationIssue } from '../validation/validation-issue';

/** Model arguments that were refused: not JSON (`invalid_json`) or not matching the schema (`invalid_arguments`). */
export class ToolArgumentError extends WuweError<ArgumentRejectionCode> {
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
