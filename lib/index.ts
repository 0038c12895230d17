/**
 * wuwe: typed LLM tools for TypeScript.
 *
 * Import `reflect-metadata` once at the entry of your program before defining tool classes.
 * This entry loads no optional back-end: `SqliteRunStore`, `PostgresRunStore` and `AnthropicModelClient`
 * load their driver (`better-sqlite3`, `pg`, `@anthropic-ai/sdk`) when first constructed.
 * @packageDocumentation
 */
export { MissingDependencyError, WuweError } from './errors';
export type { ProviderContent } from './model/model-types';
export type { ArgumentRule } from './modules/process/argument-rules';
export type { StandardSchemaIssue, StandardSchemaProps, StandardSchemaResult } from './tools/standard-schema';
export type { Checked, FieldCheck, FieldDecorator } from './reflect/field-check';
export type { InvocableToolClass, ToolDecorator } from './reflect/tool-decorator';
export type { AppendMessagesOptions, CallWriteOptions, RunWriteOptions } from './durable/run-store';
export type { HeldRunLease } from './durable/with-run-lease';
export { MAX_REPORTED_ISSUES, UnsupportedPatternError } from './validation';
export { PERMITTED_ENVIRONMENT_NAMES } from './modules/process';
export {
  DEFAULT_RETRYABLE_CATEGORIES, isToolOutcome, normalizeToolOutcome, renderToolMessage, STANDARD_TOOL_ERROR_CODES,
  standardFailure, TOOL_ERROR_CATEGORIES, toolData, toolFailure, toolText,
} from './outcome';
export { TOOL_IMAGE_MEDIA_TYPES, toolImage } from './outcome';
export type { ToolImage, ToolImageMediaType } from './outcome';
export type {
  CheckedToolOutcome, CompensationState, JsonObject, JsonPrimitive, JsonValue, LlmToolResult, StandardToolErrorCode, ToolArtifact,
  ToolErrorCategory, ToolFailureOptions, ToolFailureOutcome, ToolOutcome, ToolOutcomeError, ToolOutcomeFields,
  ToolSuccessOutcome,
} from './outcome';
export {
  checkToolDescriptor, computeRetryDelayMs, DEFAULT_RESOURCE_VERSION_POLICY, DEFAULT_RETRY_POLICY,
  DEFAULT_TOOL_CONTRACT, descriptorFromLlmTool, NO_CAPABILITIES, TOOL_NAME_PATTERN, ToolContractError,
} from './contract';
export type {
  JsonSchema, LlmTool, ToolApprovalMode, ToolCapabilities, ToolCompensationPolicy, ToolContractErrorCode,
  ToolContractOptions, ToolDescriptor, ToolHeartbeatPolicy, ToolIdempotency, ToolOutputProjectionPolicy,
  ToolOutputClass, ToolOutputValidationMode, ToolResourceVersionPolicy, ToolRetryPolicy, ToolSideEffect,
} from './contract';
export {
  compileInputValidator, compileOutputValidator, DEFAULT_ARGUMENT_LIMITS, guardJsonValue, SchemaCompileError,
} from './validation';
export type {
  ArgumentLimits, ArgumentRejectionCode, CompiledSchemaValidator, GuardJsonValueOptions, GuardResult,
  ValidationIssue,
} from './validation';
export { Contract, Field, fieldTraits, Tool, toolContract, ToolDefinitionError } from './reflect';
export type {
  ClassType, FieldItemType, FieldOptions, FieldTraits, FieldTypeOption, ScalarTypeName, ToolDefinitionErrorCode,
  ToolOptions,
} from './reflect';
export {
  defineTool, invokeReflectedTool, isStandardSchema, makeLlmTool, parseToolArguments, ToolArgumentError, toolDescriptorOf, ToolFailureError,
  toToolOutcome, tryParseToolArguments,
} from './tools';
export type {
  DefinedTool, DefinedToolContext, DefinedToolInstance, DefineToolOptions, InferSchemaOutput, InstanceFactory,
  InvocableTool, InvokeReflectedToolOptions, ParsedToolArguments, ParseToolArgumentsOptions, StandardJsonSchemaV1,
  StandardSchemaV1, ToolCallResultOf, ToolNameOf, ToolOutcomeOf, ToolOutputData, ToolsOf, TypedToolCallResult,
  UnknownToolCallResult,
} from './tools';
export {
  composeToolProviders, CompositeToolProvider, ReflectedToolProvider, SharedToolInstanceError, ToolContainerError,
  ToolProviderError, ToolRegistry, ToolsChangedEmitter,
} from './providers';
export type {
  CompensationResult, DependencyContainer, HeartbeatProgress, ReflectedToolContext, ReflectedToolProviderOptions,
  ToolDeadline, ToolInvocation, ToolProvider, ToolProviderCapabilities, ToolProviderErrorCode, ToolRegistryOptions,
  ToolsChangedListener,
} from './providers';
export {
  checkToolOutputProjectionPolicy, DEFAULT_TOOL_OUTPUT_PROJECTION, effectiveToolOutputProjection,
  FallbackTextTokenEstimator, fallbackTextTokenEstimator, MAX_ESTIMATOR_CALLS_PER_PROJECTION,
  projectToolOutputForModel, ToolOutputProjectionError, ToolOutputProjectionPolicyError,
  tryProjectToolOutputForModel,
} from './projection';
export type {
  TextTokenEstimator, ToolOutputProjection, ToolOutputProjectionFailure, ToolOutputProjectionFailureKind,
  ToolOutputProjectionOptions, ToolOutputProjectionPolicyProblemKind, ToolOutputProjectionReport,
  ToolOutputProjectionResult, ToolOutputProjectionTrigger,
} from './projection';
export { checkToolImagePolicy, DEFAULT_TOOL_IMAGE_POLICY, projectToolImages } from './projection';
export type { ToolImageOmission, ToolImagePolicy, ToolImageProjection, ToolImageProjectionReport } from './projection';
export { BaseModelClient, canStreamSteps, InMemoryMemory, ScriptedModelClient, ScriptedModelError } from './model';
export type {
  BindableTools, ChatMessage, Memory, ModelClient, ModelRequest, ModelResponse, ModelResponseFormat, ModelStepper, ModelStopReason,
  ModelStreamEvent, ModelToolCall, ModelUsage, ScriptedModelClientOptions, ScriptedReply, ScriptedTurn,
  StreamingModelStepper,
} from './model';
export {
  AnthropicModelClient, assistantMessageFromResponse, DEFAULT_ANTHROPIC_MAX_TOKENS, DEFAULT_ANTHROPIC_MODEL,
  ModelApiError, ModelClientOptionsError, stepThroughPausedTurns,
} from './model/anthropic';
export type {
  AnthropicExtraParams, AnthropicMessagesClient, AnthropicMessagesRequest, AnthropicModelClientOptions,
  AssistantChatMessage, ModelApiErrorCode, ModelApiErrorDetails, ModelClientOptionsErrorCode, PausedTurnsResult,
  ResolvedAnthropicModelClientOptions, StepThroughPausedTurnsOptions,
} from './model/anthropic';
export {
  DEFAULT_MAX_STEPS, deriveIdempotencyKey, LlmAgentError, LlmAgentRunner, SYSTEM_CLOCK,
  RunEventJournal, RunEventJournalError,
} from './runner';
export type {
  AdmittedCall, CompletedCall, LlmAgentErrorCode, LlmAgentEvent, LlmAgentEventType, LlmAgentHookName,
  InvokeToolCallOptions, LlmAgentRunOptions, LlmAgentRunResult, LlmAgentStopReason, MaybePromise, RunnerClock, RunState, DispatchedCall, Gate,
  GateStop, ModelProjection, StepContext,
  ToolApprovalDecision, ToolCallEventBase, ToolCallPermission, ToolCallRequest, ToolCallResult,
  JournalEntry, RunEventJournalOptions,
} from './runner';
export type { LlmAgentRunInput, LlmAgentRunStream, LlmAgentStreamEvent, LlmAgentStreamEventType } from './runner';
export { DEFAULT_STREAM_BUFFER_POLICY } from './runner';
export type { StreamBufferPolicy } from './runner';
export type { ToolMessagePart, UserContentPart } from './model/model-types';
export { DEFAULT_STRUCTURED_OUTPUT_POLICY, StructuredOutputError } from './runner';
export type { StructuredOutputErrorCode, StructuredOutputMode, StructuredOutputOf, StructuredOutputPolicy, StructuredOutputSchema } from './runner';
export { textOfUserContent } from './model/user-content';
export {
  AGENT_RUN_RECORD_SCHEMA_VERSION, AGENT_RUN_STATUSES, canonicalArgumentsSha256, canonicalJson, CanonicalJsonError,
  MemoryRunStore, parseAgentRunRecord, PostgresRunStore, RunStoreError, SqliteRunStore, verifyRunRecord, withRunLease,
} from './durable';
export type {
  AgentRunRecord, AgentRunStatus, ApprovalDecision, ApprovalRecord, ApprovalRequest, ApprovalState, CallStartResult,
  CreateRunOptions, MemoryRunStoreOptions, MessageOrigin, PostgresPool, PostgresRunStoreOptions, PostgresSqlExecutor, RunLease, RunLeaseOptions, RunStore,
  RunStoreErrorCode, RunStoreErrorDetails, RunSummary, SqliteRunStoreOptions, ToolCallIdentity, ToolCallRecord,
  ToolOutputProjectionInput, ToolOutputProjectionRecord,
  ChainedRunRecord, RecordChain, RecordChainEntry, RecordEntryKind, RecordHead, RecordKey, RecordKeyOption, RunRecordVerification, VerifyRunRecordOptions, BadRecordEntry,
} from './durable';
export {
  AuditedToolkit, compileFilesystemPolicy, compileProcessPolicy, DEFAULT_FILESYSTEM_LIMITS, DEFAULT_PROCESS_LIMITS,
  DENIED_ENVIRONMENT_NAMES, DENIED_ENVIRONMENT_PREFIXES, directInvocation, EXECUTABLE_NAME_PATTERN,
  EXECUTION_TOOL_NAMES, ExecutionModuleError, executionToolDescriptors, ExecutionToolProvider,
  FILESYSTEM_ERROR_OUTCOMES, FILESYSTEM_OPERATIONS, FILESYSTEM_TOOL_SPECS, FilesystemError, FilesystemToolkit,
  forgetDescriptor, InMemoryNoteStore, isDeniedEnvironmentName, isFilesystemOperation, isFinishedJobStatus, Job,
  JOB_SNAPSHOT_SCHEMA, JobManager, KNOWLEDGE_SEARCH_TOOL, KnowledgeIndex, KnowledgeIndexError,
  knowledgeSearchDescriptor, KnowledgeToolProvider, MAX_PATH_BYTES, MAX_PATH_COMPONENT_BYTES, MEMORY_TOOL_NAMES,
  MemoryModuleError, MemoryToolProvider, MUTATING_FILESYSTEM_OPERATIONS, NOTE_KEY_PATTERN, PROCESS_ERROR_OUTCOMES,
  ProcessError, ProcessToolkit, recallDescriptor, rememberDescriptor, resolveExecutionOptions, resolveFilesystemRoot,
  resolveMemoryToolOptions, SHELL_PATH, splitMarkdown, SqliteMemory, SqliteNoteStore, toFtsMatchQuery,
} from './modules';
export type {
  DirectoryIndexOptions, DirectoryIndexReport, DocumentPassage, ExecutionModuleErrorCode,
  ExecutionToolProviderOptions, ExecutionToolSettings, FilesystemApprovalHook, FilesystemApprovalRequest,
  FilesystemAuditEntry, FilesystemAuditSink, FilesystemEntryType, FilesystemErrorCode, FilesystemErrorOutcome,
  FilesystemOperation, FilesystemPolicyOptions, FilesystemToolkitOptions, FilesystemToolSpec, FtsQueryOptions,
  FtsTermMode, IndexedDocument, JobContext, JobDefinition, JobHandler, JobManagerOptions, JobSnapshot,
  JobStartRefusal, JobStartResult, JobStatus, KnowledgeDocumentFormat, KnowledgeDocumentInput, KnowledgeHit,
  KnowledgeIndexErrorCode, KnowledgeIndexOptions, KnowledgeToolProviderOptions, MemoryModuleErrorCode,
  MemoryToolLimits, MemoryToolOptionsInput, MemoryToolProviderOptions, Note, NoteMatch, NoteStore, ProcessAuditEntry,
  ProcessAuditSink, ProcessErrorCode, ProcessErrorOutcome, ProcessPolicyOptions, ProcessToolkitOptions,
  RecallNotesInput, RememberNoteInput, RememberStatus, ResolvedExecutionOptions, ResolvedFilesystemPolicy, ConfinedRoot,
  ResolvedMemoryToolOptions, ResolvedProcessPolicy, SplitMarkdown, SqliteDatabaseHandle, SqliteSource,
} from './modules';
export { ManualClock } from './testing';
// Plugins live at their own entries, `wuwe/mcp` and `wuwe/nest`: their declarations name the types of
// their optional peers, which a consumer without those peers could not compile.
