import Database from 'better-sqlite3';
import { join } from 'node:path';
import { MemoryRunStore } from '../../lib';
import { PostgresRunStore } from '../../lib/durable/postgres';
import { SqliteRunStore } from '../../lib/durable/sqlite';
import { describeBudgetKeys } from './budget-keys-suite';
import { describePostgres, requirePostgresUrl, TestSchemas } from './postgres-env';
import { makeTempDir } from './temp-dir';

const dir = makeTempDir('budget-keys');
const schemas = new TestSchemas();
afterAll(async () => {
  dir.cleanup();
  await schemas.dropAll();
});
let counter = 0;
const nextPath = (): string => join(dir.path, `db-${++counter}`, 'runs.db');

describeBudgetKeys('MemoryRunStore', async () => new MemoryRunStore());
describeBudgetKeys('SqliteRunStore', async () => new SqliteRunStore(nextPath()));
describePostgres('PostgreSQL', () => {
  describeBudgetKeys('PostgresRunStore', () =>
    PostgresRunStore.open({ connectionString: requirePostgresUrl(), schema: schemas.fresh(), maxConnections: 4 }),
  );
});

describe('SqliteRunStore budget tables', () => {
  it('are created beside the record tables, which keep their layout and schema version', async () => {
    const path = nextPath();
    const store = new SqliteRunStore(path);
    await store.budgetKeys.setKeyBudget('k', { maxToolCalls: 1 });
    await store.close();
    const raw = new Database(path, { readonly: true });
    const tables = raw.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'wuwe_budget%'");
    expect(tables.pluck().all()).toEqual(['wuwe_budget_keys', 'wuwe_budget_reservations', 'wuwe_budget_exhaustions']);
    expect(raw.prepare('SELECT version FROM wuwe_schema').pluck().get()).toBe(3);
    raw.close();
    // Opening again (the tables exist) keeps the key.
    const reopened = new SqliteRunStore(path);
    expect(await reopened.budgetKeys.loadKeyBudget('k')).toMatchObject({ limits: { maxToolCalls: 1 } });
    await reopened.close();
  });

  it('are shared by two stores on one file: their reservations never overshoot', async () => {
    const path = nextPath();
    const [first, second] = [new SqliteRunStore(path), new SqliteRunStore(path)];
    await first.budgetKeys.setKeyBudget('k', { maxToolCalls: 3 });
    const reserve = (store: SqliteRunStore, index: number) =>
      store.budgetKeys.reserveKeyBudget('k', { runId: `r${index}`, reservationId: 'call:1:c', kind: 'tool_call' });
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, index) => reserve(index % 2 ? first : second, index)),
    );
    expect(answers.filter((answer) => answer.granted)).toHaveLength(3);
    expect((await second.budgetKeys.loadKeyBudget('k'))!.spent.toolCalls).toBe(3);
    await Promise.all([first.close(), second.close()]);
  });
});
