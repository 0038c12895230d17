export { AGENT_RUN_RECORD_SCHEMA_VERSION, AGENT_RUN_STATUSES } from './agent-run-record';
export type {
  AgentRunRecord,
  AgentRunStatus,
  ApprovalRecord,
  MessageOrigin,
  ApprovalState,
  RunLease,
  ToolCallIdentity,
  ToolCallRecord,
  ToolOutputProjectionInput,
  ToolOutputProjectionRecord,
} from './agent-run-record';
export type {
  ApprovalDecision,
  ApprovalRequest,
  CallStartResult,
  CallWriteOptions,
  CreateRunOptions,
  RunStore,
  RunSummary,
} from './run-store';
export { RunStoreError } from './run-store-error';
export type { RunStoreErrorCode, RunStoreErrorDetails } from './run-store-error';
export { CanonicalJsonError } from './canonical-json-error';
export { canonicalJson, canonicalArgumentsSha256, sha256Hex } from './canonical-arguments';
export { parseAgentRunRecord } from './parse-agent-run-record';
export { MemoryRunStore } from './memory-run-store';
export type { MemoryRunStoreOptions } from './memory-run-store';
export { SqliteRunStore } from './sqlite';
export type { SqliteRunStoreOptions } from './sqlite';
export { PostgresRunStore } from './postgres';
export type { PostgresPool, PostgresRunStoreOptions, PostgresSqlExecutor } from './postgres';
export { withRunLease } from './with-run-lease';
export type { HeldRunLease, RunLeaseOptions } from './with-run-lease';
export { verifyRunRecord } from './chain/verify-run-record';
export type { BadRecordEntry, RunRecordVerification, VerifyRunRecordOptions } from './chain/verify-run-record';
export { runRecordToJsonLines, parseRunRecordJsonLines } from './chain/record-json-lines';
export { toolContentSha256 } from './chain/chain-entities';
export type {
  ChainedRunRecord,
  RecordChain,
  RecordChainEntry,
  RecordChainOptions,
  RecordEntryKind,
  RecordHead,
  RecordKey,
  RecordKeyOption,
} from './chain/record-chain';
