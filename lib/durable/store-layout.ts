import { AGENT_RUN_RECORD_SCHEMA_VERSION } from './agent-run-record';

/**
 * The tables of schema version 3 and the columns each must have, shared by the SQL stores to check a
 * database they open. The DDL itself lives with each store.
 */
export const STORE_TABLE_COLUMNS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  wuwe_schema: ['id', 'version'],
  wuwe_runs: [
    'run_id',
    'status',
    'metadata_json',
    'created_at',
    'updated_at',
    'fencing_token',
    'chain_head',
    'chain_length',
  ],
  wuwe_messages: ['run_id', 'seq', 'message_json'],
  wuwe_tool_calls: [
    'run_id',
    'call_id',
    'tool_name',
    'idempotency_key',
    'attempts',
    'arguments_sha256',
    'arguments_json',
    'status',
    'outcome_json',
    'started_at',
    'admitted_at',
    'turn',
  ],
  wuwe_tool_output_projections: [
    'run_id',
    'call_id',
    'tool_name',
    'projected_sha256',
    'report_json',
    'recorded_at',
    'turn',
    'content_sha256',
    'message_index',
  ],
  wuwe_approvals: [
    'run_id',
    'call_id',
    'tool_name',
    'arguments_sha256',
    'state',
    'decided_by',
    'reason',
    'requested_at',
    'decided_at',
    'turn',
    'decided_arguments_sha256',
  ],
  wuwe_leases: ['run_id', 'worker_id', 'expires_at_ms'],
  wuwe_record_chain: ['run_id', 'seq', 'kind', 'subject', 'entity_sha256', 'source', 'key_id', 'digest'],
});

/**
 * Columns schema version 3 added, by table: the chain head, the projection's content hash, the decision's arguments
 * hash.
 */
const COLUMNS_ADDED_IN_V3: Readonly<Record<string, readonly string[]>> = Object.freeze({
  wuwe_runs: ['chain_head', 'chain_length'],
  wuwe_tool_output_projections: ['content_sha256', 'message_index'],
  wuwe_approvals: ['decided_arguments_sha256'],
});

/** Tables schema version 3 added. */
const TABLES_ADDED_IN_V3: readonly string[] = ['wuwe_record_chain'];

/**
 * Columns schema version 2 added, by table: the fencing token, and the turn that with the call id identifies a call.
 */
const COLUMNS_ADDED_IN_V2: Readonly<Record<string, readonly string[]>> = Object.freeze({
  wuwe_runs: ['fencing_token'],
  wuwe_tool_calls: ['turn'],
  wuwe_tool_output_projections: ['turn'],
  wuwe_approvals: ['turn'],
});

/**
 * Names the first table of {@link STORE_TABLE_COLUMNS} missing from `actual` or missing a column, or returns
 * `undefined` when the layout is complete for schema `version` (a version-1 layout lacks the columns version 2
 * added; opening migrates it). `actual` maps table names to their column names.
 */
export function findLayoutProblem(
  actual: ReadonlyMap<string, readonly string[]>,
  version: number = AGENT_RUN_RECORD_SCHEMA_VERSION,
): string | undefined {
  for (const [table, columns] of Object.entries(STORE_TABLE_COLUMNS)) {
    const present = actual.get(table);
    if (!present && version < 3 && TABLES_ADDED_IN_V3.includes(table)) continue;
    if (!present) return `table ${table} is missing`;
    const added = [
      ...(version < 2 ? (COLUMNS_ADDED_IN_V2[table] ?? []) : []),
      ...(version < 3 ? (COLUMNS_ADDED_IN_V3[table] ?? []) : []),
    ];
    const missing = columns.filter((column) => !present.includes(column) && !added.includes(column));
    if (missing.length > 0) return `table ${table} lacks column(s) ${missing.join(', ')}`;
  }
  return undefined;
}

/** A table of {@link STORE_TABLE_COLUMNS}. */
export type StoreTable =
  | 'wuwe_schema'
  | 'wuwe_runs'
  | 'wuwe_messages'
  | 'wuwe_tool_calls'
  | 'wuwe_tool_output_projections'
  | 'wuwe_approvals'
  | 'wuwe_leases'
  | 'wuwe_record_chain';

/** The comma-separated column list of `table`, in layout order, for SELECT and INSERT statements. */
export function columnList(table: StoreTable): string {
  return STORE_TABLE_COLUMNS[table].join(', ');
}
