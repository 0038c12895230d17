import { createServer } from 'node:net';
import { Client, Pool } from 'pg';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAgentRunRecord } from '../../lib/durable';
import { PostgresRunStore } from '../../lib/durable/postgres';
import { RunStoreError, toolText } from '../../lib';
import { describePostgres, requirePostgresUrl, TestSchemas } from './postgres-env';
import { describeCallIdentity } from './call-identity-suite';
import { describeRunStore, identity } from './run-store-suite';
import { expectMigratedTurns, version1TurnsSql } from './v1-turns';

const schemas = new TestSchemas();
afterAll(() => schemas.dropAll());

describePostgres('PostgresRunStore', () => {
  it('has a server to test against (WUWE_TEST_POSTGRES_URL)', () => {
    expect(requirePostgresUrl()).toMatch(/^postgres(ql)?:\/\//);
  });

  describeRunStore('PostgresRunStore', (clock) =>
    PostgresRunStore.open({
      connectionString: requirePostgresUrl(),
      schema: schemas.fresh(),
      clock,
      maxConnections: 3,
    }),
  );
  describeCallIdentity('PostgresRunStore', () =>
    PostgresRunStore.open({ connectionString: requirePostgresUrl(), schema: schemas.fresh(), maxConnections: 3 }),
  );

  let admin: Pool;
  beforeAll(() => {
    admin = new Pool({ connectionString: requirePostgresUrl(), max: 2 });
  });
  afterAll(() => admin.end());

  const open = (schema: string, url = requirePostgresUrl()) =>
    PostgresRunStore.open({ connectionString: url, schema, maxConnections: 3 });

  it('shares one schema between stores and enforces uniqueness in the database itself', async () => {
    const schema = schemas.fresh();
    const [a, b] = await Promise.all([open(schema), open(schema)]);
    await a.createRun({ runId: 'r' });
    await b.recordCallStarted('r', identity('c1', { to: 'a' }, { idempotencyKey: 'k' }));
    const insert = `INSERT INTO "${schema}".wuwe_tool_calls (run_id, call_id, tool_name, idempotency_key, attempts, arguments_sha256, arguments_json, status, started_at, turn)
                    VALUES ('r', $1, 't', $2, 1, 'h', '{}', 'started', 'now', 1)`;
    await expect(admin.query(insert, ['c1', null])).rejects.toMatchObject({ code: '23505' });
    await expect(admin.query(insert, ['c2', 'k'])).rejects.toMatchObject({ code: '23505' });
    await expect(admin.query(`UPDATE "${schema}".wuwe_tool_calls SET status = 'admitted'`)).rejects.toMatchObject({
      code: '23514',
    });
    await Promise.all([a.close(), b.close()]);
  });

  it('rejects a newer or unknown schema version', async () => {
    const schema = schemas.fresh();
    await (await open(schema)).close();
    for (const version of [4, 0]) {
      await admin.query(`UPDATE "${schema}".wuwe_schema SET version = $1`, [version]);
      await expect(open(schema)).rejects.toEqual(expect.objectContaining({ code: 'schema_version_mismatch' }));
    }
  });

  it('migrates a version-1 schema in place to version 3 and reads the same record as the version-1 JSON fixture', async () => {
    const schema = schemas.fresh();
    await admin.query(
      readFileSync(join(__dirname, 'fixtures', 'postgres-v1.sql'), 'utf8').replaceAll('__SCHEMA__', schema),
    );
    const expected = parseAgentRunRecord(readFileSync(join(__dirname, 'fixtures', 'agent-run-record-v1.json'), 'utf8'));
    const store = await open(schema);
    expect(await store.loadRun(expected.runId)).toEqual(expected);
    expect((await admin.query(`SELECT version FROM "${schema}".wuwe_schema`)).rows).toEqual([{ version: 3 }]);
    await store.setStatus(expected.runId, 'cancelled');
    expect((await store.loadRun(expected.runId))!.approvals.map((approval) => approval.state)).toEqual([
      'approved',
      'cancelled',
    ]);
    await store.setStatus(expected.runId, 'stopped');
    await store.close();
    const reopened = await open(schema);
    expect((await reopened.loadRun(expected.runId))!.status).toBe('stopped');
    await reopened.close();
  });

  it('gives each migrated call, projection audit and approval the turn of its call id in the messages, keeps its key, and resumes the right turn', async () => {
    const schema = schemas.fresh();
    await admin.query(
      readFileSync(join(__dirname, 'fixtures', 'postgres-v1.sql'), 'utf8').replaceAll('__SCHEMA__', schema),
    );
    await admin.query(version1TurnsSql((name) => `"${schema}".${name}`));
    const store = await open(schema);
    await expectMigratedTurns(store);
    await store.close();
    const pk = await admin.query(
      `SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
       WHERE i.indrelid = '"${schema}".wuwe_tool_calls'::regclass AND i.indisprimary ORDER BY array_position(i.indkey, a.attnum)`,
    );
    expect(pk.rows.map((row: { attname: string }) => row.attname)).toEqual(['run_id', 'turn', 'call_id']);
  });

  it('rejects a damaged or headless wuwe layout as store_corrupt', async () => {
    const damaged = schemas.fresh();
    await (await open(damaged)).close();
    await admin.query(`ALTER TABLE "${damaged}".wuwe_tool_calls DROP COLUMN outcome_json`);
    await expect(open(damaged)).rejects.toEqual(
      expect.objectContaining({ code: 'store_corrupt', message: expect.stringContaining('outcome_json') }),
    );
    const headless = schemas.fresh();
    await admin.query(`CREATE SCHEMA "${headless}"; CREATE TABLE "${headless}".wuwe_runs (run_id TEXT)`);
    await expect(open(headless)).rejects.toEqual(expect.objectContaining({ code: 'store_corrupt' }));
  });

  it('reports an unreachable server as store_unavailable', async () => {
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const address = server.address() as { port: number };
        server.close(() => resolve(address.port));
      });
    });
    const error = await open('public', `postgres://postgres@127.0.0.1:${port}/wuwe_test`).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(RunStoreError);
    expect(error).toMatchObject({ code: 'store_unavailable' });
  });

  it('gives up connecting after connectTimeoutMs, as store_unavailable', async () => {
    // A server that accepts the connection and never answers: only the connect timeout ends the wait.
    const sockets: import('node:net').Socket[] = [];
    const silent = createServer((socket) => void sockets.push(socket));
    const port = await new Promise<number>((resolve) =>
      silent.listen(0, '127.0.0.1', () => resolve((silent.address() as { port: number }).port)),
    );
    try {
      const opening = PostgresRunStore.open({
        connectionString: `postgres://postgres@127.0.0.1:${port}/wuwe_test`,
        connectTimeoutMs: 300,
      });
      const outcome = await Promise.race([
        opening.then(
          () => 'opened',
          (error: unknown) => error,
        ),
        new Promise((resolve) => setTimeout(() => resolve('still waiting after 5 s'), 5000)),
      ]);
      expect(outcome).toMatchObject({ code: 'store_unavailable' });
      await opening.catch(() => undefined);
    } finally {
      sockets.forEach((socket) => socket.destroy());
      silent.close();
    }
  });

  describe('a connection lost mid-transaction', () => {
    /** Starts `operation`, waits until it is blocked on the run row's lock, then kills its backend. */
    async function terminateWhileBlocked(schema: string, operation: () => Promise<unknown>): Promise<unknown> {
      const locker = new Client({ connectionString: requirePostgresUrl() });
      await locker.connect();
      try {
        await locker.query('BEGIN');
        await locker.query(`SELECT 1 FROM "${schema}".wuwe_runs WHERE run_id = 'r' FOR NO KEY UPDATE`);
        const pending = operation().then(
          () => undefined,
          (error: unknown) => error,
        );
        let pid: number | undefined;
        for (let tries = 0; pid === undefined && tries < 200; tries++) {
          const waiting = await admin.query<{ pid: number }>(
            `SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE $1 AND pid <> $2`,
            [`%"${schema}".wuwe_runs SET updated_at%`, (locker as unknown as { processID: number }).processID],
          );
          pid = waiting.rows[0]?.pid;
          if (pid === undefined) await new Promise((resolve) => setTimeout(resolve, 25));
        }
        expect(pid).toBeDefined();
        await admin.query('SELECT pg_terminate_backend($1)', [pid]);
        return await pending;
      } finally {
        await locker.query('ROLLBACK');
        await locker.end();
      }
    }

    it('rolls back an admission that had already updated the call, and the store stays usable', async () => {
      const schema = schemas.fresh();
      const store = await open(schema);
      await store.createRun({ runId: 'r' });
      await store.recordCallStarted('r', identity('c1', { to: 'a' }));
      const error = await terminateWhileBlocked(schema, () => store.admitOutcome('r', 'c1', toolText('sent'), 1));
      expect(error).toBeInstanceOf(RunStoreError);
      expect(error).toMatchObject({ code: 'store_unavailable' });
      const call = (await store.loadRun('r'))!.toolCalls[0];
      expect(call.status).toBe('started');
      expect(call.outcome).toBeUndefined();
      expect((await store.admitOutcome('r', 'c1', toolText('sent'), 1)).status).toBe('admitted');
      await store.close();
    });

    it('rolls back a call start that had already inserted the call', async () => {
      const schema = schemas.fresh();
      const store = await open(schema);
      await store.createRun({ runId: 'r' });
      const error = await terminateWhileBlocked(schema, () =>
        store.recordCallStarted('r', identity('c1', { to: 'a' }, { idempotencyKey: 'k' })),
      );
      expect(error).toMatchObject({ code: 'store_unavailable' });
      expect((await store.loadRun('r'))!.toolCalls).toEqual([]);
      expect(
        await store.findAdmittedByIdempotencyKey('k', identity('c1', { to: 'a' }).argumentsSha256),
      ).toBeUndefined();
      expect((await store.recordCallStarted('r', identity('c1', { to: 'a' }, { idempotencyKey: 'k' }))).created).toBe(
        true,
      );
      await store.close();
    });
  });
});
