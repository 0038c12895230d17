export {
  DEFAULT_FILESYSTEM_LIMITS, FILESYSTEM_ERROR_OUTCOMES, FILESYSTEM_OPERATIONS, FILESYSTEM_TOOL_SPECS,
  FilesystemError, FilesystemToolkit, MAX_PATH_BYTES, MAX_PATH_COMPONENT_BYTES, MUTATING_FILESYSTEM_OPERATIONS,
  compileFilesystemPolicy, isFilesystemOperation, isInsideRoot, resolveFilesystemRoot, splitRelativePath,
} from './filesystem';
export type {
  FilesystemApprovalHook, FilesystemApprovalRequest, FilesystemAuditEntry, FilesystemAuditSink, FilesystemEntryType,
  FilesystemErrorCode, FilesystemErrorOutcome, FilesystemOperation, FilesystemPolicyOptions, FilesystemToolSpec,
  FilesystemToolkitOptions, ResolvedFilesystemPolicy, ConfinedRoot,
} from './filesystem';
export {
  DEFAULT_PROCESS_LIMITS, DENIED_ENVIRONMENT_NAMES, DENIED_ENVIRONMENT_PREFIXES, EXECUTABLE_NAME_PATTERN,
  PROCESS_ERROR_OUTCOMES, ProcessError, ProcessToolkit, SHELL_PATH, compileProcessPolicy, isDeniedEnvironmentName,
} from './process';
export type {
  ProcessAuditEntry, ProcessAuditSink, ProcessErrorCode, ProcessErrorOutcome, ProcessPolicyOptions,
  ProcessToolkitOptions, ResolvedProcessPolicy,
} from './process';
export {
  InMemoryNoteStore, MEMORY_TOOL_NAMES, MemoryModuleError, MemoryToolProvider, NOTE_KEY_PATTERN, SqliteMemory,
  SqliteNoteStore, forgetDescriptor, recallDescriptor, rememberDescriptor, resolveMemoryToolOptions,
} from './memory';
export type {
  MemoryModuleErrorCode, MemoryToolLimits, MemoryToolOptionsInput, MemoryToolProviderOptions, Note, NoteMatch,
  NoteStore, RecallNotesInput, RememberNoteInput, RememberStatus, ResolvedMemoryToolOptions,
} from './memory';
export {
  KNOWLEDGE_SEARCH_TOOL, KnowledgeIndex, KnowledgeIndexError, KnowledgeToolProvider, directInvocation,
  knowledgeSearchDescriptor, splitMarkdown, toFtsMatchQuery,
} from './knowledge';
export type {
  DirectoryIndexOptions, DirectoryIndexReport, DocumentPassage, FtsQueryOptions, FtsTermMode, IndexedDocument,
  KnowledgeDocumentFormat, KnowledgeDocumentInput, KnowledgeHit, KnowledgeIndexErrorCode, KnowledgeIndexOptions,
  KnowledgeToolProviderOptions, SplitMarkdown, SqliteDatabaseHandle, SqliteSource,
} from './knowledge';
export {
  EXECUTION_TOOL_NAMES, ExecutionModuleError, ExecutionToolProvider, JOB_SNAPSHOT_SCHEMA, Job, JobManager,
  executionToolDescriptors, isFinishedJobStatus, resolveExecutionOptions, strongestSideEffect,
} from './execution';
export type {
  ExecutionModuleErrorCode, ExecutionToolProviderOptions, ExecutionToolSettings, JobContext, JobDefinition,
  JobHandler, JobManagerOptions, JobSnapshot, JobStartRefusal, JobStartResult, JobStatus, ResolvedExecutionOptions,
} from './execution';
export { AuditedToolkit } from './audited-toolkit';
