export { FILESYSTEM_ERROR_OUTCOMES, FilesystemError } from './filesystem-error';
export type { FilesystemErrorCode, FilesystemErrorOutcome } from './filesystem-error';
export { FILESYSTEM_OPERATIONS, MUTATING_FILESYSTEM_OPERATIONS, isFilesystemOperation } from './filesystem-operations';
export type { FilesystemOperation } from './filesystem-operations';
export type { FilesystemAuditEntry, FilesystemAuditSink } from './filesystem-audit';
export { DEFAULT_FILESYSTEM_LIMITS, compileFilesystemPolicy, resolveFilesystemRoot } from './filesystem-policy';
export type {
  FilesystemApprovalHook,
  FilesystemApprovalRequest,
  FilesystemPolicyOptions,
  ResolvedFilesystemPolicy,
} from './filesystem-policy';
export type { ConfinedRoot } from './confined-root';
export { FILESYSTEM_TOOL_SPECS } from './filesystem-tool-specs';
export type { FilesystemToolSpec } from './filesystem-tool-specs';
export { FilesystemToolkit } from './filesystem-toolkit';
export type { FilesystemToolkitOptions } from './filesystem-toolkit';
export { splitRelativePath, isInsideRoot, MAX_PATH_BYTES, MAX_PATH_COMPONENT_BYTES } from './path-rules';
export type { FilesystemEntryType } from './entry-type';
