import { canonicalArgumentsSha256 } from '../../lib/durable';
import { PostgresRunStore } from '../../lib/durable/postgres';
import { describePostgres, requirePostgresUrl, TestSchemas } from '../durable/postgres-env';
import { runCli } from './cli-harness';
import { PROMPT, runner } from './fixtures/approval-agent';
import { join } from 'node:path';
import { tmpdir } from 'node:os';

const AGENT = join(__dirname, 'fixtures', 'approval-agent.ts');

describePostgres('wuwe command line on PostgreSQL', () => {
  const schemas = new TestSchemas();
  afterAll(() => schemas.dropAll());

  it('lists, approves and resumes a suspended run in the schema named by the URL', async () => {
    const schema = schemas.fresh();
    const db = await PostgresRunStore.open({ connectionString: requirePostgresUrl(), schema });
    const { runId } = await runner.complete(PROMPT, { store: db });
    await db.close();
    const url = new URL(requirePostgresUrl());
    url.searchParams.set('schema', schema);
    const store = url.toString();

    const listed = await runCli(['runs', 'list', '--store', store, '--json'], tmpdir());
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([
      expect.objectContaining({ runId, status: 'awaiting_approval', steps: 1, pendingApprovals: 1 }),
    ]);

    const hash = canonicalArgumentsSha256({ name: 'staging' });
    const approved = await runCli(
      ['approvals', 'approve', runId, 'call_delete', '--store', store, '--arguments-sha256', hash, '--json'],
      tmpdir(),
    );
    expect(approved.code).toBe(0);
    expect(JSON.parse(approved.stdout)).toMatchObject({
      state: 'approved',
      runStatus: 'awaiting_approval',
      pendingApprovals: 0,
    });

    const resumed = await runCli(['resume', runId, '--agent', AGENT, '--store', store, '--json'], tmpdir());
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ status: 'completed', stopReason: 'end_turn' });

    const other = new URL(requirePostgresUrl());
    other.searchParams.set('schema', schemas.fresh());
    const empty = await runCli(['runs', 'show', runId, '--store', other.toString()], tmpdir());
    expect(empty.code).toBe(3);
  });
});
