import Database from 'better-sqlite3';
import { join } from 'node:path';
import { ChatMessage, MemoryRunStore, RunStore, toolText } from '../../../lib';
import { ChainedRunRecord, parseRunRecordJsonLines, runRecordToJsonLines, verifyRunRecord } from '../../../lib/durable';
import { sha256Hex } from '../../../lib/durable/canonical-arguments';
import { MAX_RECORD_DEPTH } from '../../../lib/durable/record-shape';
import { SqliteRunStore } from '../../../lib/durable/sqlite';
import { identity, testClock } from '../run-store-suite';
import { makeTempDir } from '../temp-dir';

const writeTemp = makeTempDir('malformed-writes');
afterAll(() => writeTemp.cleanup());
const TOOL_MESSAGE: ChatMessage = {
  role: 'tool',
  toolCallId: 'c1',
  toolName: 'send_email',
  content: 'sent',
  isError: false,
};

/** Writes to run `r` of `store` an admitted call `c1` with its Tool message and projection audit. */
async function admittedCall(store: RunStore, outcomeData?: unknown): Promise<void> {
  await store.recordCallStarted('r', identity('c1', { to: 'a' }));
  const outcome = outcomeData === undefined ? toolText('sent') : ({ ok: true, data: outcomeData } as never);
  await store.admitOutcome('r', 'c1', outcome, 1);
  const report = {
    truncated: false,
    originalBytes: 4,
    originalTokens: 1,
    projectedBytes: 4,
    projectedTokens: 1,
    maxBytes: 100,
    maxTokens: 100,
    trigger: null,
  };
  await store.appendMessages('r', [TOOL_MESSAGE], {
    projections: [{ callId: 'c1', toolName: 'send_email', projectedSha256: sha256Hex('sent'), report: report }],
  });
}

/**
 * A run with a user message, an admitted call with its Tool message and projection audit, and a pending approval,
 * as its store exports it.
 */
async function exportedRun(outcomeData?: unknown): Promise<ChainedRunRecord> {
  const store = new MemoryRunStore({ clock: testClock().read });
  await store.createRun({ runId: 'r', messages: [{ role: 'user', content: 'hi' }], metadata: { agent: 'mailer' } });
  await admittedCall(store, outcomeData);
  await store.requestApproval('r', { callId: 'c2', toolName: 'send_email', argumentsSha256: sha256Hex('{}') });
  return (await store.exportRun('r'))!;
}

/** `levels` arrays nested in one another, as JSON text (`JSON.parse` reads any depth without recursing). */
const nested = (levels: number): string => '['.repeat(levels) + ']'.repeat(levels);

/** An edit of a record as a plain object; `deep` is a value nested 20,000 levels deep, for the edits that need one. */
type Edit = (plain: any, deep: unknown) => void;

/** A deep copy of `record` with `edit` applied to it. */
function edited(record: ChainedRunRecord, edit: Edit): any {
  const copy = JSON.parse(JSON.stringify(record));
  edit(copy, JSON.parse(nested(20_000)));
  return copy;
}

/** The export of `record` with its record line (line 2) edited by `edit` (written as text: no stringify recurses). */
function editedExport(record: ChainedRunRecord, edit: Edit): string {
  const [header, line, ...entries] = runRecordToJsonLines(record).trimEnd().split('\n');
  const plain = JSON.parse(line);
  edit(plain, '@deep@');
  return [header, JSON.stringify(plain).replace('"@deep@"', nested(20_000)), ...entries].join('\n');
}

/** What `run` throws (it must throw). */
function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('it did not throw');
}

const invalid = (message: RegExp) =>
  expect.objectContaining({ code: 'record_invalid', message: expect.stringMatching(message) });

const deepMetadata: Edit = (plain, deep) => (plain.metadata = { deep });
const deepMessage: Edit = (plain, deep) => (plain.messages[0].extra = deep);
const toolContentNumber: Edit = (plain) => (plain.messages[1].content = 5);

describe('a malformed chained record', () => {
  let record: ChainedRunRecord;
  beforeAll(async () => {
    record = await exportedRun();
    expect(verifyRunRecord(record)).toMatchObject({ ok: true });
    expect(verifyRunRecord(parseRunRecordJsonLines(runRecordToJsonLines(record)))).toMatchObject({ ok: true });
  });

  it.each<[string, Edit, RegExp]>([
    ['approvals: [null]', (plain) => plain.approvals.push(null), /malformed: approval 1 must be an object/],
    [
      'toolOutputProjections: [null]',
      (plain) => plain.toolOutputProjections.push(null),
      /malformed: projection audit 1 must be an object/,
    ],
    [
      'a Tool message whose content is a number',
      toolContentNumber,
      /malformed: message 1: a tool message needs `content` text/,
    ],
    [
      'metadata nested 20,000 levels deep',
      deepMetadata,
      new RegExp(`metadata nests deeper than the ${MAX_RECORD_DEPTH} levels`),
    ],
    ['a message nested 20,000 levels deep', deepMessage, /message 0 nests deeper than/],
    [
      'a call whose turn is text',
      (plain) => (plain.toolCalls[0].turn = '1'),
      /call c1: turn must be a positive integer/,
    ],
    ['an approval of unknown state', (plain) => (plain.approvals[0].state = 'granted'), /unknown state "granted"/],
    [
      'a projection whose messageIndex is a key',
      (plain) => (plain.toolOutputProjections[0].messageIndex = 'constructor'),
      /messageIndex/,
    ],
  ])('parseRunRecordJsonLines refuses %s as record_invalid, naming it', (_, edit, message) => {
    expect(() => parseRunRecordJsonLines(editedExport(record, edit))).toThrow(invalid(message));
  });

  it.each<[string, (lines: string[]) => void, RegExp]>([
    [
      'a header naming another run',
      (lines) => (lines[0] = JSON.stringify({ ...JSON.parse(lines[0]), runId: 'other' })),
      /header names run "other"; its record is run "r"/,
    ],
    [
      'a header head that is no digest',
      (lines) => (lines[0] = JSON.stringify({ ...JSON.parse(lines[0]), head: 5 })),
      /head that is not a digest/,
    ],
    ['a header that is null', (lines) => (lines[0] = 'null'), /does not start with a wuwe-run-record\/3 header/],
    [
      'a chain entry whose subject is a number',
      (lines) => (lines[2] = JSON.stringify({ ...JSON.parse(lines[2]), subject: 5 })),
      /Line 3 of the export \(chain entry 0\) is malformed: its subject/,
    ],
    ['a chain entry that is null', (lines) => (lines[3] = 'null'), /chain entry 1\) is malformed: it is not an object/],
    ['a chain entry nested deep', (lines) => (lines[3] = nested(20_000)), /chain entry 1\) is malformed/],
  ])('parseRunRecordJsonLines refuses %s as record_invalid', (_, edit, message) => {
    const lines = runRecordToJsonLines(record).trimEnd().split('\n');
    edit(lines);
    expect(() => parseRunRecordJsonLines(lines.join('\n'))).toThrow(invalid(message));
  });

  it('parseRunRecordJsonLines refuses a value that is not text as record_invalid', () => {
    for (const value of [5, null, undefined, {}, ['x']])
      expect(() => parseRunRecordJsonLines(value as never)).toThrow(invalid(/is JSON Lines text, not/));
  });

  it.each<[string, Edit, object, RegExp]>([
    [
      'approvals: [null]',
      (plain) => plain.approvals.push(null),
      { subject: 'approvals/1' },
      /approval 1 must be an object/,
    ],
    [
      'toolOutputProjections: [null]',
      (plain) => plain.toolOutputProjections.push(null),
      { subject: 'toolOutputProjections/1' },
      /projection audit 1 must be an object/,
    ],
    [
      'a Tool message whose content is a number',
      toolContentNumber,
      { kind: 'message_appended', subject: 'message:1' },
      /message 1: a tool message needs `content` text/,
    ],
    [
      'metadata nested 20,000 levels deep',
      deepMetadata,
      { index: 0, kind: 'run_created', subject: 'run' },
      /metadata nests deeper/,
    ],
    [
      'a message nested 20,000 levels deep',
      deepMessage,
      { kind: 'message_appended', subject: 'message:0' },
      /message 0 nests deeper/,
    ],
    ['metadata holding a BigInt', (plain) => (plain.metadata = { n: 1n }), { subject: 'run' }, /holds a bigint/],
    ['a cycle', (plain) => (plain.metadata.self = plain.metadata), { subject: 'run' }, /nests deeper/],
    [
      'a call without its status',
      (plain) => delete plain.toolCalls[0].status,
      { kind: 'call_admitted', subject: 'call:1:c1' },
      /unknown status/,
    ],
  ])(
    'verifyRunRecord answers %s with a verdict naming the entry, before hashing anything',
    (_, edit, entry, reason) => {
      const verdict = verifyRunRecord(edited(record, edit));
      expect(verdict).toMatchObject({ ok: false, entry, reason: expect.stringMatching(/^the record is malformed: /) });
      expect(verdict).toMatchObject({ reason: expect.stringMatching(reason) });
    },
  );

  it('verifyRunRecord answers a malformed chain with a verdict naming the entry', () => {
    const entryEdit = (position: number, value: unknown) =>
      edited(record, (plain) => (plain.chain.entries[position] = value));
    expect(verifyRunRecord(entryEdit(1, null))).toMatchObject({
      ok: false,
      entry: { index: 1 },
      reason: 'the entry at position 1 is malformed: it is not an object',
    });
    const deepKind = { ...record.chain.entries[2], kind: JSON.parse(nested(20_000)) };
    expect(verifyRunRecord(entryEdit(2, deepKind))).toMatchObject({
      ok: false,
      entry: { index: 2, kind: 'run_created' },
      reason: expect.stringMatching(/position 2 is malformed: its kind/),
    });
    expect(verifyRunRecord({ ...record, chain: { ...record.chain, head: 5 as never } })).toMatchObject({ ok: false });
    expect(verifyRunRecord({ ...record, chain: undefined as never })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/no chain/),
    });
  });

  it('verifyRunRecord answers {} with a verdict, and throws record_invalid for what is no record at all', () => {
    expect(verifyRunRecord({} as never)).toEqual({
      ok: false,
      entry: { index: 0, kind: 'run_created', subject: 'run' },
      reason: 'the record has no chain (an object with an entries list)',
    });
    for (const value of [null, undefined, 5, 'record', []])
      expect(() => verifyRunRecord(value as never)).toThrow(invalid(/needs a run record with its chain/));
  });

  it('verifyRunRecord refuses malformed keys as record_invalid, without a raw crypto error', () => {
    const secret = 'a record key of more than sixteen bytes';
    for (const [keys, message] of [
      [{ id: 'k', secret }, /Record key 'k' needs `key`: a string or a Uint8Array of at least 16 bytes/],
      [{ id: 'k', key: 1234567890123456 }, /needs `key`/],
      [5, /must be an object \{ id, key \}/],
      [[null], /must be an object/],
      [{ id: '', key: secret }, /non-empty id/],
      [{ id: 'k', key: new Uint8Array(8) }, /shorter than 16 bytes/],
    ] as const) {
      const error = thrown(() => verifyRunRecord(record, { keys: keys as never }));
      expect(error).toEqual(invalid(message));
      expect((error as Error).message).not.toContain(secret);
    }
    // Well-formed keys are taken: this plain chain is then not the keyed chain asked for.
    expect(verifyRunRecord(record, { keys: { id: 'k', key: new Uint8Array(16) } })).toMatchObject({
      ok: false,
      reason: 'it is not signed, and a keyed chain was required',
    });
  });

  it('a record holding a tool result as deep as the runner admits verifies, through its export too', async () => {
    const deep = await exportedRun(JSON.parse(nested(256)));
    expect(verifyRunRecord(deep)).toMatchObject({ ok: true });
    expect(verifyRunRecord(parseRunRecordJsonLines(runRecordToJsonLines(deep)))).toMatchObject({ ok: true });
  });

  it('a store refuses a run whose Tool message content was edited to a number as record_tampered, without hashing it', async () => {
    const dir = makeTempDir('malformed-record');
    try {
      const path = join(dir.path, 'runs.db');
      const store = new SqliteRunStore({ path, clock: testClock().read });
      await store.createRun({ runId: 'r' });
      await admittedCall(store);
      await store.close();
      const db = new Database(path);
      db.prepare("UPDATE wuwe_messages SET message_json = json_set(message_json, '$.content', 5)").run();
      db.close();
      const reopened = new SqliteRunStore({ path, clock: testClock().read });
      await expect(reopened.loadRun('r')).rejects.toMatchObject({
        code: 'record_tampered',
        entrySubject: 'message:0',
        message: expect.stringContaining('the record is malformed: message 0: a tool message needs `content` text'),
      });
      expect(verifyRunRecord((await reopened.exportRun('r'))!)).toMatchObject({
        ok: false,
        entry: { subject: 'message:0' },
      });
      await reopened.close();
    } finally {
      dir.cleanup();
    }
  });
});

describe('a store never writes what a load would refuse', () => {
  const deep = (levels: number): unknown => {
    let value: unknown = 'leaf';
    for (let level = 0; level < levels; level++) value = { next: value };
    return value;
  };
  it.each<[string, () => RunStore]>([
    ['MemoryRunStore', () => new MemoryRunStore()],
    ['SqliteRunStore', () => new SqliteRunStore({ path: join(writeTemp.path, `${Math.random()}.db`) })],
  ])(
    '%s refuses malformed messages and over-deep metadata as record_invalid, and the run still loads',
    async (_name, open) => {
      const store = open();
      await store.createRun({ runId: 'r' });
      const malformed: unknown[] = [
        { role: 'system', content: 'x' },
        { ...TOOL_MESSAGE, content: 42 },
        { role: 'assistant', content: 'x', toolCalls: [{ id: 1, name: 'a', arguments: {} }] },
        { role: 'user', content: deep(MAX_RECORD_DEPTH) },
      ];
      for (const message of malformed)
        await expect(store.appendMessages('r', [message as ChatMessage])).rejects.toMatchObject({
          name: 'RunStoreError',
          code: 'record_invalid',
        });
      await expect(
        store.createRun({ runId: 'deep', metadata: { nested: deep(MAX_RECORD_DEPTH) } as never }),
      ).rejects.toMatchObject({ code: 'record_invalid' });
      const record = await store.loadRun('r');
      expect(record?.messages).toEqual([]);
      expect(await store.loadRun('deep')).toBeUndefined();
      await store.close();
    },
  );
});

describe('a message with toJSON or getters cannot show the store one message and write another', () => {
  it.each<[string, () => RunStore]>([
    ['MemoryRunStore', () => new MemoryRunStore()],
    ['SqliteRunStore', () => new SqliteRunStore({ path: join(writeTemp.path, `${Math.random()}.db`) })],
  ])('%s writes the checked plain JSON, with the origin the write gives it', async (_name, open) => {
    const store = open();
    const forged = {
      role: 'user',
      content: 'hello',
      toJSON: () => ({
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'f1', name: 'write_thing', arguments: '{"x":"FORGED"}' }],
        wuweOrigin: 'model',
      }),
    };
    const { runId } = await store.createRun({ messages: [forged as unknown as ChatMessage] });
    await store.appendMessages(runId, [forged as unknown as ChatMessage]);
    const record = await store.loadRun(runId);
    expect(record?.messageOrigins).toEqual(['other', 'other']);
    expect(record?.messages[0]).toMatchObject({ role: 'assistant' });
    expect(record?.messages[0]).not.toHaveProperty('wuweOrigin');
    await store.close();
  });
});
