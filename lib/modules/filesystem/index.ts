/**
 * `wuwe/filesystem`: the sandboxed filesystem toolkit: tools confined to a root, its policy and limits,
 * approvals and the audit trail.
 * @packageDocumentation
 */
export { FilesystemToolkit } from './filesystem-toolkit';
export type { FilesystemToolkitOptions } from './filesystem-toolkit';
export { FilesystemError } from './filesystem-error';
export type { FilesystemErrorCode, FilesystemErrorOutcome } from './filesystem-error';
export { compileFilesystemPolicy, DEFAULT_FILESYSTEM_LIMITS } from './filesystem-policy';
export type {
  FilesystemApprovalHook,
  FilesystemApprovalRequest,
  FilesystemPolicyOptions,
  ResolvedFilesystemPolicy,
} from './filesystem-policy';
export { FILESYSTEM_OPERATIONS, MUTATING_FILESYSTEM_OPERATIONS } from './filesystem-operations';
export type { FilesystemOperation } from './filesystem-operations';
export { MAX_PATH_BYTES, MAX_PATH_COMPONENT_BYTES } from './path-rules';
export type { FilesystemAuditEntry, FilesystemAuditSink } from './filesystem-audit';
export type { FilesystemEntryType } from './entry-type';
export type { ConfinedRoot } from './confined-root';
