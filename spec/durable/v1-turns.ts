import { createHash } from 'node:crypto';
import { canonicalArgumentsSha256, canonicalJson } from '../../lib/durable';
import { ChatMessage, LlmAgentRunner, RunStore, ScriptedModelClient } from '../../lib';
import { sha256Hex } from '../../lib/durable/canonical-arguments';
import { FunctionProvider } from '../runner/support';

/** A run written by version 1 whose calls span two turns, crashed before its second call was admitted. */
export const V1_TURNS_RUN_ID = 'run-v1-turns';

/** The idempotency key version 1 derived for a call: from the run and the call id only. */
export function version1Key(runId: string, callId: string): string {
  return `wuwe-${createHash('sha256').update(`${runId}\u0000${callId}`).digest('hex').slice(0, 32)}`;
}

const messages: ChatMessage[] = [
  { role: 'user', content: 'look up 1, then 2' },
  { role: 'assistant', content: '', toolCalls: [{ id: 'call_a', name: 'lookup', arguments: { n: 1 } }] },
  { role: 'tool', toolCallId: 'call_a', toolName: 'lookup', content: 'ran 1', isError: false },
  { role: 'assistant', content: '', toolCalls: [{ id: 'call_b', name: 'lookup', arguments: { n: 2 } }] },
];

const quote = (text: string | null): string => (text === null ? 'NULL' : `'${text.replaceAll("'", "''")}'`);

/**
 * Version-1 rows of {@link V1_TURNS_RUN_ID} (SQL valid on SQLite and PostgreSQL), to insert into a version-1
 * layout; `table` qualifies a table name. `call_a` belongs to turn 1, `call_b` (started, never admitted) to turn 2,
 * and `call_host` (recorded by a host, in no message) to turn 1 by default.
 */
export function version1TurnsSql(table: (name: string) => string): string {
  const run = V1_TURNS_RUN_ID;
  const rows = [
    `INSERT INTO ${table('wuwe_runs')} (run_id, status, metadata_json, created_at, updated_at) VALUES (${quote(run)}, 'running', NULL, '2026-11-30T13:00:00.000Z', '2026-11-30T13:00:05.000Z');`,
    ...messages.map(
      (message, index) =>
        `INSERT INTO ${table('wuwe_messages')} (run_id, seq, message_json) VALUES (${quote(run)}, ${index + 1}, ${quote(JSON.stringify(message))});`,
    ),
  ];
  const calls: [string, number, string, string | null][] = [
    ['call_a', 1, 'admitted', JSON.stringify({ ok: true, text: 'ran 1' })],
    ['call_host', 3, 'started', null],
    ['call_b', 2, 'started', null],
  ];
  for (const [callId, n, status, outcome] of calls) {
    const args = { n };
    const key = callId === 'call_host' ? null : version1Key(run, callId);
    rows.push(
      `INSERT INTO ${table('wuwe_tool_calls')} (run_id, call_id, tool_name, idempotency_key, attempts, arguments_sha256, arguments_json, status, outcome_json, started_at, admitted_at) VALUES (` +
        `${quote(run)}, ${quote(callId)}, 'lookup', ${quote(key)}, 1, ${quote(canonicalArgumentsSha256(args))}, ${quote(canonicalJson(args))}, ${quote(status)}, ${quote(outcome)}, '2026-11-30T13:00:01.000Z', ${quote(outcome === null ? null : '2026-11-30T13:00:02.000Z')});`,
    );
  }
  const report = {
    maxBytes: 65536,
    maxTokens: 10000,
    originalBytes: 5,
    originalTokens: 2,
    projectedBytes: 5,
    projectedTokens: 2,
    trigger: null,
    truncated: false,
  };
  rows.push(
    `INSERT INTO ${table('wuwe_tool_output_projections')} (run_id, call_id, tool_name, projected_sha256, report_json, recorded_at) VALUES (${quote(run)}, 'call_a', 'lookup', ${quote(sha256Hex('ran 1'))}, ${quote(canonicalJson(report))}, '2026-11-30T13:00:03.000Z');`,
    `INSERT INTO ${table('wuwe_approvals')} (run_id, call_id, tool_name, arguments_sha256, state, decided_by, reason, requested_at, decided_at) VALUES (${quote(run)}, 'call_b', 'lookup', ${quote(canonicalArgumentsSha256({ n: 2 }))}, 'approved', 'ops', NULL, '2026-11-30T13:00:04.000Z', '2026-11-30T13:00:04.500Z');`,
  );
  return rows.join('\n');
}

/**
 * Checks a store that migrated {@link version1TurnsSql}: every row got the turn of the first assistant message
 * carrying its call id (else 1), the stored keys are untouched, and a resume re-executes the open idempotent call
 * of turn 2 once, under the key version 1 gave it.
 */
export async function expectMigratedTurns(store: RunStore): Promise<void> {
  const record = (await store.loadRun(V1_TURNS_RUN_ID))!;
  expect(record.toolCalls.map((call) => [call.callId, call.turn, call.status, call.idempotencyKey])).toEqual([
    ['call_a', 1, 'admitted', version1Key(V1_TURNS_RUN_ID, 'call_a')],
    ['call_host', 1, 'started', undefined],
    ['call_b', 2, 'started', version1Key(V1_TURNS_RUN_ID, 'call_b')],
  ]);
  expect(record.toolOutputProjections.map((audit) => [audit.callId, audit.turn])).toEqual([['call_a', 1]]);
  expect(record.approvals.map((approval) => [approval.callId, approval.turn, approval.state])).toEqual([
    ['call_b', 2, 'approved'],
  ]);

  const provider = new FunctionProvider({ idempotencyKey: true }).add(
    'lookup',
    (invocation) => `ran ${invocation.arguments.n as number}`,
    { idempotency: 'idempotent' },
    { n: { type: 'integer' } },
  );
  const model = new ScriptedModelClient([{ text: 'done' }]);
  const result = await new LlmAgentRunner(model, provider).resume(V1_TURNS_RUN_ID, { store });
  expect(result.stopReason).toBe('end_turn');
  expect(provider.calls.map((call) => [call.callId, call.arguments, call.idempotencyKey])).toEqual([
    ['call_b', { n: 2 }, version1Key(V1_TURNS_RUN_ID, 'call_b')],
  ]);
  expect(model.requests[0].messages.flatMap((message) => (message.role === 'tool' ? [message.content] : []))).toEqual([
    'ran 1',
    'ran 2',
  ]);
  const resumed = (await store.loadRun(V1_TURNS_RUN_ID))!;
  expect(resumed.toolCalls.find((call) => call.callId === 'call_b')).toMatchObject({ turn: 2, status: 'admitted' });
  expect(resumed.toolOutputProjections.map((audit) => [audit.callId, audit.turn])).toEqual([
    ['call_a', 1],
    ['call_b', 2],
  ]);
}
