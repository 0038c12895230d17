import { FilesystemError } from './filesystem-error';
import { FilesystemOperation, MUTATING_FILESYSTEM_OPERATIONS } from './filesystem-operations';
import { ResolvedFilesystemPolicy } from './filesystem-policy';

/**
 * The refusal for an operation the policy does not allow, or undefined when it is allowed:
 * `read_only` for a mutation in read-only mode, `operation_not_allowed` for an operation left out
 * of `operations`.
 */
export function operationRefusal(
  policy: ResolvedFilesystemPolicy,
  operation: FilesystemOperation,
): FilesystemError | undefined {
  if (policy.readOnly && MUTATING_FILESYSTEM_OPERATIONS.includes(operation))
    return new FilesystemError('read_only', `The filesystem is read-only; '${operation}' is refused.`);
  if (!policy.operations.includes(operation))
    return new FilesystemError('operation_not_allowed', `The operation '${operation}' is not allowed by policy.`);
  return undefined;
}
