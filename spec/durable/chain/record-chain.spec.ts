import Database from 'better-sqlite3';
import { join } from 'node:path';
import { Pool } from 'pg';
import { ChatMessage, LlmAgentRunner, ScriptedModelClient, MemoryRunStore, RunStore, toolText } from '../../../lib';
import {
  parseRunRecordJsonLines,
  RecordHead,
  RecordKeyOption,
  runRecordToJsonLines,
  verifyRunRecord,
} from '../../../lib/durable';
import { PostgresRunStore } from '../../../lib/durable/postgres';
import { sha256Hex } from '../../../lib/durable/canonical-arguments';
import { SqliteRunStore } from '../../../lib/durable/sqlite';
import { toolContentSha256 } from '../../../lib/durable/chain/chain-entities';
import { FunctionProvider } from '../../runner/support';
import { requirePostgresUrl, TestSchemas } from '../postgres-env';
import { makeTempDir } from '../temp-dir';
import { GIF_1X1, PNG_1X1 } from '../../support/tiny-images';
import { identity, testClock } from '../run-store-suite';

/** A turn 1 read call whose Tool message the model saw, then a turn 2 destructive call waiting for approval. */
const script = (messages: readonly ChatMessage[]) => {
  const tools = messages.filter((message) => message.role === 'tool').length;
  if (tools === 0) return { toolCalls: [{ id: 'c_count', name: 'count_rows', arguments: '{}' }] };
  if (tools === 1) return { toolCalls: [{ id: 'c_drop', name: 'drop_table', arguments: '{}' }] };
  return { text: 'done' };
};

function tools(ran: string[]) {
  return new FunctionProvider()
    .add('drop_table', () => (ran.push('drop_table'), 'dropped'), { sideEffect: 'destructive' })
    .add('count_rows', () => (ran.push('count_rows'), '42 rows'), { sideEffect: 'read' });
}

/** A store kind with raw SQL access to its tables (`T.name` becomes the qualified table name). */
interface SqlKind {
  readonly name: string;
  open(options?: { recordKey?: RecordKeyOption; onRecordHead?: (head: RecordHead) => void }): Promise<RunStore>;
  sql(text: string): Promise<void>;
}

const dir = makeTempDir('record-chain');
const schemas = new TestSchemas();
let admin: Pool;
beforeAll(() => {
  admin = new Pool({ connectionString: requirePostgresUrl(), max: 2 });
});
afterAll(async () => {
  await admin.end();
  await schemas.dropAll();
  dir.cleanup();
});

let counter = 0;
function sqliteKind(): SqlKind {
  const path = join(dir.path, `chain-${++counter}.db`);
  return {
    name: 'SQLite',
    open: async (options = {}) => new SqliteRunStore({ path, clock: testClock().read, ...options }),
    sql: async (text) => {
      const db = new Database(path);
      try {
        db.exec(text.replace(/T\.(wuwe_\w+)/g, '$1'));
      } finally {
        db.close();
      }
    },
  };
}
function postgresKind(): SqlKind {
  const schema = schemas.fresh();
  return {
    name: 'PostgreSQL',
    open: (options = {}) =>
      PostgresRunStore.open({ connectionString: requirePostgresUrl(), schema, clock: testClock().read, ...options }),
    sql: async (text) => {
      await admin.query(text.replace(/T\.(wuwe_\w+)/g, `"${schema}".$1`));
    },
  };
}

/** Runs the scripted agent until it waits for approval of `c_drop`; returns the tools that ran. */
async function suspendedRun(store: RunStore): Promise<string[]> {
  const ran: string[] = [];
  const result = await new LlmAgentRunner(
    new ScriptedModelClient([script, script, script, script]),
    tools(ran),
  ).complete('count then drop', { store, runId: 'r' });
  expect(result.stopReason).toBe('awaiting_approval');
  return ran;
}

/** Resumes `r` with a fresh runner; returns the error it threw and the tools that ran. */
async function resumeAfter(store: RunStore): Promise<{ error: unknown; ran: string[] }> {
  const ran: string[] = [];
  const error = await new LlmAgentRunner(new ScriptedModelClient([script, script, script, script]), tools(ran))
    .resume('r', { store })
    .then(
      () => undefined,
      (caught: unknown) => caught,
    );
  return { error, ran };
}

const tampering: readonly {
  readonly what: string;
  readonly sql: string;
  readonly kind: string;
  readonly subject: string;
}[] = [
  {
    what: 'an admitted outcome replaced',
    sql: `UPDATE T.wuwe_tool_calls SET outcome_json = replace(outcome_json, '42 rows', '99999 EUR') WHERE call_id = 'c_count'`,
    kind: 'call_admitted',
    subject: 'call:1:c_count',
  },
  {
    what: 'a Tool message edited in place',
    sql: `UPDATE T.wuwe_messages SET message_json = replace(message_json, '42 rows', '0 rows') WHERE message_json LIKE '%"role":"tool"%'`,
    kind: 'projection_audited',
    subject: 'projection:1:c_count',
  },
  {
    what: 'the user message edited',
    sql: `UPDATE T.wuwe_messages SET message_json = replace(message_json, 'count then drop', 'drop everything') WHERE seq = 1`,
    kind: 'message_appended',
    subject: 'message:0',
  },
  {
    what: 'the last message deleted',
    sql: `DELETE FROM T.wuwe_messages WHERE seq = (SELECT MAX(seq) FROM T.wuwe_messages)`,
    kind: 'message_appended',
    subject: 'message:3',
  },
  {
    what: 'an approval forged with a decision',
    sql: `UPDATE T.wuwe_approvals SET state = 'approved', decided_by = 'ops', decided_at = '2026-01-01T00:00:00.000Z', decided_arguments_sha256 = arguments_sha256`,
    kind: 'approval_decided',
    subject: 'approval:2:c_drop',
  },
  {
    what: 'the run status changed',
    sql: `UPDATE T.wuwe_runs SET status = 'failed'`,
    kind: 'status_changed',
    subject: 'run',
  },
  {
    what: 'a chain entry deleted',
    sql: `DELETE FROM T.wuwe_record_chain WHERE seq = 3`,
    kind: 'call_admitted',
    subject: 'call:1:c_count',
  },
  {
    what: 'two chain entries swapped',
    sql: `UPDATE T.wuwe_record_chain SET seq = 1000 WHERE seq = 1; UPDATE T.wuwe_record_chain SET seq = 1 WHERE seq = 2; UPDATE T.wuwe_record_chain SET seq = 2 WHERE seq = 1000`,
    kind: 'message_appended',
    subject: 'message:1',
  },
  {
    what: 'an entry appended after the head',
    sql: `INSERT INTO T.wuwe_record_chain (run_id, seq, kind, subject, entity_sha256, source, key_id, digest) SELECT run_id, chain_length, 'status_changed', 'run', '${'0'.repeat(64)}', 'write', NULL, '${'1'.repeat(64)}' FROM T.wuwe_runs`,
    kind: 'status_changed',
    subject: 'run',
  },
  {
    what: 'a call inserted by hand',
    sql: `INSERT INTO T.wuwe_tool_calls (run_id, call_id, tool_name, idempotency_key, attempts, arguments_sha256, arguments_json, status, outcome_json, started_at, admitted_at, turn)
          VALUES ('r', 'c_fake', 'drop_table', NULL, 1, '${'0'.repeat(64)}', '{}', 'admitted', '{"ok":true}', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', 2)`,
    kind: 'call_admitted',
    subject: 'call:2:c_fake',
  },
];

describe.each([
  ['SQLite', sqliteKind],
  ['PostgreSQL', postgresKind],
] as const)('%s record chain', (_name, makeKind) => {
  it('refuses an approval flipped to approved by hand (no decider, no time): resume fails with record_invalid and the destructive tool never runs', async () => {
    const kind = makeKind();
    const store = await kind.open();
    expect(await suspendedRun(store)).toEqual(['count_rows']);
    await kind.sql(`UPDATE T.wuwe_approvals SET state = 'approved' WHERE call_id = 'c_drop'`);
    const { error, ran } = await resumeAfter(store);
    expect(error).toMatchObject({ code: 'record_invalid' });
    expect(ran).toEqual([]);
    await store.close();
  });

  it('records who decided, when, why and on which arguments hash', async () => {
    const kind = makeKind();
    const store = await kind.open();
    await suspendedRun(store);
    const pending = (await store.loadRun('r'))!.approvals[0];
    const decided = await store.decideApproval(
      'r',
      'c_drop',
      {
        approved: true,
        toolName: 'drop_table',
        argumentsSha256: pending.argumentsSha256,
        decidedBy: 'alice',
        reason: 'checked',
      },
      { turn: 2 },
    );
    expect(decided).toMatchObject({
      state: 'approved',
      decidedBy: 'alice',
      reason: 'checked',
      decidedArgumentsSha256: pending.argumentsSha256,
      decidedAt: expect.any(String),
    });
    const { error, ran } = await resumeAfter(store);
    expect(error).toBeUndefined();
    expect(ran).toEqual(['drop_table']);
    expect(verifyRunRecord((await store.exportRun('r'))!)).toMatchObject({ ok: true, migratedEntries: 0 });
    await store.close();
  });

  it.each(tampering)(
    'detects $what at the next resume, naming the entry, and runs nothing',
    async ({ sql, kind: entryKind, subject }) => {
      const kind = makeKind();
      const store = await kind.open();
      await suspendedRun(store);
      await store.decideApproval(
        'r',
        'c_drop',
        {
          approved: true,
          toolName: 'drop_table',
          argumentsSha256: (await store.loadRun('r'))!.approvals[0].argumentsSha256,
          decidedBy: 'alice',
        },
        { turn: 2 },
      );
      await kind.sql(sql);
      const { error, ran } = await resumeAfter(store);
      expect(error).toMatchObject({
        code: 'record_tampered',
        entryKind,
        entrySubject: subject,
        entryIndex: expect.any(Number),
      });
      expect(ran).toEqual([]);
      const verdict = verifyRunRecord((await store.exportRun('r'))!);
      expect(verdict).toMatchObject({ ok: false, entry: { kind: entryKind, subject } });
      await store.close();
    },
  );

  it('with a record key signs entries with HMAC-SHA-256; an edit with plain hashes recomputed, or a wrong key, is detected', async () => {
    const kind = makeKind();
    const key = { id: 'k1', key: 'a secret of at least sixteen bytes' };
    const store = await kind.open({ recordKey: key });
    await suspendedRun(store);
    const exported = (await store.exportRun('r'))!;
    expect(exported.chain.entries.every((entry) => entry.keyId === 'k1')).toBe(true);
    expect(verifyRunRecord(exported, { keys: [{ id: 'k0', key: 'an older key, sixteen bytes+' }, key] })).toMatchObject(
      { ok: true },
    );
    expect(verifyRunRecord(exported, { keys: { id: 'k1', key: 'not the right secret value' } })).toMatchObject({
      ok: false,
      entry: { index: 0 },
    });
    expect(verifyRunRecord(exported)).toMatchObject({ ok: false, entry: { index: 0 } });
    // An attacker without the key edits the outcome and rechains every entry with plain SHA-256.
    await kind.sql(`UPDATE T.wuwe_tool_calls SET outcome_json = replace(outcome_json, '42 rows', '99999 EUR')`);
    const forged = (await store.exportRun('r'))!;
    const { chain: _chain, ...plain } = forged;
    const rechained = await rechainPlain(plain);
    for (const entry of rechained.entries)
      await kind.sql(
        `UPDATE T.wuwe_record_chain SET key_id = NULL, entity_sha256 = '${entry.entitySha256}', digest = '${entry.digest}' WHERE seq = ${entry.index}`,
      );
    await kind.sql(`UPDATE T.wuwe_runs SET chain_head = '${rechained.head}'`);
    const { error, ran } = await resumeAfter(store);
    expect(error).toMatchObject({ code: 'record_tampered', entryIndex: 0 });
    expect(ran).toEqual([]);
    await store.close();
  });

  it('a store not given the key a run is signed with refuses it as record_key_missing, naming the key, and runs nothing', async () => {
    const kind = makeKind();
    const key = { id: 'k1', key: 'a secret of at least sixteen bytes' };
    const signing = await kind.open({ recordKey: key });
    await suspendedRun(signing);
    await signing.close();
    for (const recordKey of [undefined, { id: 'k2', key: 'another secret of sixteen bytes' }]) {
      const store = await kind.open(recordKey === undefined ? {} : { recordKey });
      await expect(store.loadRun('r')).rejects.toMatchObject({
        code: 'record_key_missing',
        recordKeyId: 'k1',
        entryIndex: 0,
        message: expect.stringContaining("signed with record key 'k1'"),
      });
      const { error, ran } = await resumeAfter(store);
      expect(error).toMatchObject({ code: 'record_key_missing' });
      expect(ran).toEqual([]);
      await store.close();
    }
  });

  it('exports a record as JSON Lines that verifies offline, tells the host every head, and writes the same chain as the memory store', async () => {
    const kind = makeKind();
    const heads: RecordHead[] = [];
    const store = await kind.open({ onRecordHead: (head) => void heads.push(head) });
    const memory = new MemoryRunStore({ clock: testClock().read });
    await suspendedRun(store);
    await suspendedRun(memory);
    const exported = (await store.exportRun('r'))!;
    expect(heads[heads.length - 1]).toEqual({
      runId: 'r',
      index: exported.chain.entries.length - 1,
      digest: exported.chain.head,
    });
    const parsed = parseRunRecordJsonLines(runRecordToJsonLines(exported));
    expect(verifyRunRecord(parsed)).toMatchObject({ ok: true, entries: exported.chain.entries.length });
    expect((await memory.exportRun('r'))!.chain).toEqual(exported.chain);
    const lines = runRecordToJsonLines(exported).replace('42 rows', '41 rows');
    expect(verifyRunRecord(parseRunRecordJsonLines(lines))).toMatchObject({ ok: false });
    // The parsed outcome readers use is forged while the admitted text the chain hashed is left alone.
    const forged = parseRunRecordJsonLines(runRecordToJsonLines(exported));
    const admitted = forged.toolCalls.find((call) => typeof call.outcomeJson === 'string')!;
    (admitted as { outcome: unknown }).outcome = { ok: true, text: '99999 EUR' };
    expect(verifyRunRecord(forged)).toMatchObject({
      ok: false,
      entry: { kind: 'call_admitted' },
      reason: 'the parsed outcome differs from the admitted outcome text',
    });
    await store.close();
  });
});

/** The chain an attacker without a key computes for `record` (as a migration would, plain SHA-256). */
async function rechainPlain(
  record: Parameters<typeof verifyRunRecord>[0] extends infer R ? Omit<R & object, 'chain'> : never,
) {
  const { recordDrafts } = await import('../../../lib/durable/chain/chain-entities');
  const { chainEntries, recordKeyRing } = await import('../../../lib/durable/chain/chain-digest');
  const forgedHistory = recordDrafts(record);
  // Keep the stored entry count: the attacker rewrites each row in place.
  const stored = forgedHistory;
  const entries = chainEntries(record.runId, { length: 0 }, stored, recordKeyRing(undefined), 'write');
  return { entries, head: entries[entries.length - 1].digest };
}

describe('MemoryRunStore record chain', () => {
  it('detects an outcome changed in its internals at the next load, and keeps images in the projection audit', async () => {
    const store = new MemoryRunStore({ clock: testClock().read });
    await store.createRun({ runId: 'm' });
    await store.recordCallStarted('m', identity('c1', { to: 'a' }));
    await store.admitOutcome('m', 'c1', toolText('sent'), 1);
    const tool = (data: string): ChatMessage => ({
      role: 'tool',
      toolCallId: 'c1',
      toolName: 'send_email',
      content: 'sent',
      isError: false,
      parts: [{ type: 'image', mediaType: data === PNG_1X1 ? 'image/png' : 'image/gif', data }],
    });
    const projection = {
      callId: 'c1',
      toolName: 'send_email',
      projectedSha256: sha256Hex('sent'),
      report: {
        truncated: false,
        originalBytes: 4,
        originalTokens: 1,
        projectedBytes: 4,
        projectedTokens: 1,
        maxBytes: 100,
        maxTokens: 100,
        trigger: 'none',
      } as never,
    };
    await store.appendMessages('m', [tool(PNG_1X1)], { projections: [projection] });
    const audit = (await store.loadRun('m'))!.toolOutputProjections[0];
    expect(audit).toMatchObject({ contentSha256: toolContentSha256(tool(PNG_1X1) as never), messageIndex: 0 });
    expect(toolContentSha256(tool(PNG_1X1) as never)).not.toBe(toolContentSha256(tool(GIF_1X1) as never));
    const state = (
      store as unknown as { runs: Map<string, { messages: string[]; calls: Map<string, { outcome_json: string }> }> }
    ).runs.get('m')!;
    const original = state.messages[0];
    state.messages[0] = JSON.stringify({
      ...JSON.parse(original),
      parts: [{ type: 'image', mediaType: 'image/gif', data: GIF_1X1 }],
    });
    await expect(store.loadRun('m')).rejects.toMatchObject({
      code: 'record_tampered',
      entrySubject: 'projection:1:c1',
    });
    state.messages[0] = original;
    [...state.calls.values()][0].outcome_json = JSON.stringify(toolText('99999 EUR'));
    await expect(store.loadRun('m')).rejects.toMatchObject({
      code: 'record_tampered',
      entryKind: 'call_admitted',
      entrySubject: 'call:1:c1',
    });
  });
});
