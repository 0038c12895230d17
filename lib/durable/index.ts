/**
 * `wuwe/durable`: durable runs in detail, for writing a store or reading records: the `RunStore`
 * write and read types, the record and its parts (calls, approvals, projections, leases), the record's
 * schema version and parser, the tamper-evident chain (`verifyRunRecord`, JSON Lines export), run leases
 * (`withRunLease`), and canonical JSON with the arguments digest.
 * @packageDocumentation
 */
export { AGENT_RUN_RECORD_SCHEMA_VERSION, AGENT_RUN_STATUSES } from './agent-run-record';
export type {
  ApprovalRecord,
  ApprovalState,
  MessageOrigin,
  RunLease,
  ToolCallIdentity,
  ToolCallRecord,
  ToolOutputProjectionInput,
  ToolOutputProjectionRecord,
} from './agent-run-record';
export { canonicalArgumentsSha256, canonicalJson } from './canonical-arguments';
export { CanonicalJsonError } from './canonical-json-error';
export { parseAgentRunRecord } from './parse-agent-run-record';
export { verifyRunRecord } from './chain/verify-run-record';
export type { BadRecordEntry, RunRecordVerification, VerifyRunRecordOptions } from './chain/verify-run-record';
export { withRunLease } from './with-run-lease';
export type { HeldRunLease, RunLeaseOptions } from './with-run-lease';
export { parseRunRecordJsonLines, runRecordToJsonLines } from './chain/record-json-lines';
export type {
  AppendMessagesOptions,
  ApprovalDecision,
  ApprovalRequest,
  CallStartResult,
  CallWriteOptions,
  CreateRunOptions,
  RunLeaseRequest,
  RunSummary,
  RunWriteOptions,
  SetStatusOptions,
  SetStatusResult,
} from './run-store';
export type { MemoryRunStoreOptions } from './memory-run-store';
export type {
  BudgetKeyPrice,
  BudgetKeyReservation,
  BudgetKeyReservationRef,
  BudgetKeyReservationResult,
  BudgetKeyStore,
  BudgetKeyUsage,
  KeyBudgetLimitName,
  KeyBudgetLimits,
  KeyBudgetSpent,
  KeyBudgetState,
  StoredBudgetExhaustion,
} from './budget/budget-keys';
export type { RunStoreErrorDetails } from './run-store-error';
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
export { followRun, FINAL_RUN_EVENT_TYPES } from './run-events/follow-run';
export type { FollowRunOptions } from './run-events/follow-run';
export { FollowRunError } from './run-events/follow-run-error';
export type { FollowRunErrorCode } from './run-events/follow-run-error';
export { hasRunEventLog } from './run-events/run-event-log';
export type {
  AppendRunEventsOptions,
  KeptRunEvent,
  ReadRunEventsOptions,
  RunEventLog,
} from './run-events/run-event-log';
