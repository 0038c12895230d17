import type BetterSqlite3 from 'better-sqlite3';
import type {
  BudgetKeyReservation,
  BudgetKeyReservationRef,
  BudgetKeyReservationResult,
  BudgetKeyStore,
  BudgetKeyUsage,
  KeyBudgetLimits,
  KeyBudgetState,
  StoredBudgetExhaustion,
} from '../budget/budget-keys';
import {
  BudgetKeyWrites,
  checkKeyBudget,
  checkKeyUsage,
  checkReservation,
  keyNotFound,
  keyStateOf,
  planKeyRelease,
  planKeyReservation,
  planKeySettlement,
} from '../rules/budget-key-rules';
import { checkId } from '../rules/value-rules';
import {
  BudgetExhaustionTableRow,
  BudgetKeyTableRow,
  budgetKeyOfRow,
  BudgetReservationTableRow,
  exhaustionOfRow,
  keyTotalsParameters,
  reservationOfRow,
  reservationParameters,
} from '../sql/budget-key-rows';
import { SqliteRunSession } from './sqlite-run-session';

/**
 * The budget tables of a SQLite run store, created with `CREATE TABLE IF NOT EXISTS` when the store opens for
 * writing. They sit beside the record tables and leave their layout and schema version alone.
 */
export const SQLITE_BUDGET_KEY_TABLES = `
CREATE TABLE IF NOT EXISTS wuwe_budget_keys (
  budget_key TEXT PRIMARY KEY,
  limits_json TEXT NOT NULL,
  input_tokens INTEGER NOT NULL DEFAULT 0,
  output_tokens INTEGER NOT NULL DEFAULT 0,
  cost_usd REAL NOT NULL DEFAULT 0,
  tool_calls INTEGER NOT NULL DEFAULT 0,
  model_requests INTEGER NOT NULL DEFAULT 0,
  in_flight INTEGER NOT NULL DEFAULT 0,
  updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS wuwe_budget_reservations (
  budget_key TEXT NOT NULL REFERENCES wuwe_budget_keys (budget_key) ON DELETE CASCADE,
  run_id TEXT NOT NULL,
  reservation_id TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('model_request', 'tool_call')),
  state TEXT NOT NULL CHECK (state IN ('reserved', 'settled', 'released')),
  input_tokens INTEGER NOT NULL,
  output_tokens INTEGER NOT NULL,
  cost_usd REAL NOT NULL,
  tool_calls INTEGER NOT NULL,
  model_requests INTEGER NOT NULL,
  output_cap INTEGER,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (budget_key, run_id, reservation_id)
);
CREATE TABLE IF NOT EXISTS wuwe_budget_exhaustions (
  run_id TEXT PRIMARY KEY,
  budget_key TEXT,
  limit_name TEXT NOT NULL,
  max_value REAL NOT NULL,
  at TEXT NOT NULL,
  recorded_at TEXT NOT NULL
);
`;

const STATEMENTS = {
  selectKey: 'SELECT * FROM wuwe_budget_keys WHERE budget_key = ?',
  upsertLimits: `INSERT INTO wuwe_budget_keys (budget_key, limits_json, updated_at) VALUES (?, ?, ?)
    ON CONFLICT (budget_key) DO UPDATE SET limits_json = excluded.limits_json, updated_at = excluded.updated_at`,
  updateTotals: `UPDATE wuwe_budget_keys SET input_tokens = ?, output_tokens = ?, cost_usd = ?, tool_calls = ?,
    model_requests = ?, in_flight = ?, updated_at = ? WHERE budget_key = ?`,
  selectReservation:
    'SELECT * FROM wuwe_budget_reservations WHERE budget_key = ? AND run_id = ? AND reservation_id = ?',
  upsertReservation: `INSERT INTO wuwe_budget_reservations (budget_key, run_id, reservation_id, kind, state,
    input_tokens, output_tokens, cost_usd, tool_calls, model_requests, output_cap, updated_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (budget_key, run_id, reservation_id) DO UPDATE SET state = excluded.state,
    input_tokens = excluded.input_tokens, output_tokens = excluded.output_tokens, cost_usd = excluded.cost_usd,
    tool_calls = excluded.tool_calls, model_requests = excluded.model_requests, output_cap = excluded.output_cap,
    updated_at = excluded.updated_at`,
  insertExhaustion: `INSERT INTO wuwe_budget_exhaustions (run_id, budget_key, limit_name, max_value, at, recorded_at)
    VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (run_id) DO NOTHING`,
  selectExhaustion: 'SELECT * FROM wuwe_budget_exhaustions WHERE run_id = ?',
} as const;

/**
 * The {@link BudgetKeyStore} of a {@link SqliteRunStore}: each method one immediate transaction (`BEGIN IMMEDIATE`
 * takes the write lock up front), so runs of one key in several processes on the file reserve one after another.
 */
export class SqliteBudgetKeys implements BudgetKeyStore {
  private readonly prepared = new Map<keyof typeof STATEMENTS, BetterSqlite3.Statement>();

  constructor(
    private readonly db: BetterSqlite3.Database,
    private readonly session: SqliteRunSession,
  ) {}

  /** {@inheritDoc BudgetKeyStore.setKeyBudget} */
  async setKeyBudget(key: string, limits: KeyBudgetLimits): Promise<KeyBudgetState> {
    const checked = checkKeyBudget(key, limits);
    return this.session.transaction({}, () => {
      this.statement('upsertLimits').run(key, JSON.stringify(checked), this.session.now());
      return keyStateOf(key, budgetKeyOfRow(this.keyRow(key)!));
    });
  }

  /** {@inheritDoc BudgetKeyStore.loadKeyBudget} */
  async loadKeyBudget(key: string): Promise<KeyBudgetState | undefined> {
    checkId(key, 'budget key');
    return this.session.read({}, () => {
      const row = this.keyRow(key);
      return row && keyStateOf(key, budgetKeyOfRow(row));
    });
  }

  /** {@inheritDoc BudgetKeyStore.reserveKeyBudget} */
  async reserveKeyBudget(key: string, reservation: BudgetKeyReservation): Promise<BudgetKeyReservationResult> {
    checkId(key, 'budget key');
    checkReservation(reservation);
    return this.session.transaction({ runId: reservation.runId }, () => {
      const row = this.keyRow(key);
      if (row === undefined) throw keyNotFound(key);
      const planned = planKeyReservation(key, budgetKeyOfRow(row), this.reservation(key, reservation), reservation);
      if (planned.writes !== undefined) this.write(key, reservation, planned.writes);
      return planned.result;
    });
  }

  /** {@inheritDoc BudgetKeyStore.settleKeyBudget} */
  async settleKeyBudget(key: string, reservation: BudgetKeyReservationRef, usage: BudgetKeyUsage): Promise<void> {
    checkKeyUsage(usage);
    this.session.transaction({ runId: reservation.runId }, () => {
      const row = this.keyRow(key);
      if (row === undefined) return;
      const writes = planKeySettlement(budgetKeyOfRow(row), this.reservation(key, reservation), usage);
      if (writes !== undefined) this.write(key, reservation, writes);
    });
  }

  /** {@inheritDoc BudgetKeyStore.releaseKeyBudget} */
  async releaseKeyBudget(key: string, reservation: BudgetKeyReservationRef): Promise<void> {
    this.session.transaction({ runId: reservation.runId }, () => {
      const row = this.keyRow(key);
      if (row === undefined) return;
      const writes = planKeyRelease(budgetKeyOfRow(row), this.reservation(key, reservation));
      if (writes !== undefined) this.write(key, reservation, writes);
    });
  }

  /** {@inheritDoc BudgetKeyStore.recordBudgetExhaustion} */
  async recordBudgetExhaustion(exhaustion: Omit<StoredBudgetExhaustion, 'recordedAt'>): Promise<void> {
    checkId(exhaustion.runId, 'runId');
    const { runId, key, limit, max, at } = exhaustion;
    this.session.transaction({ runId }, () =>
      this.statement('insertExhaustion').run(runId, key ?? null, limit, max, at, this.session.now()),
    );
  }

  /** {@inheritDoc BudgetKeyStore.loadBudgetExhaustion} */
  async loadBudgetExhaustion(runId: string): Promise<StoredBudgetExhaustion | undefined> {
    return this.session.read({ runId }, () => {
      const row = this.statement('selectExhaustion').get(runId) as BudgetExhaustionTableRow | undefined;
      return row && exhaustionOfRow(row);
    });
  }

  private keyRow(key: string): BudgetKeyTableRow | undefined {
    return this.statement('selectKey').get(key) as BudgetKeyTableRow | undefined;
  }

  private reservation(key: string, { runId, reservationId }: BudgetKeyReservationRef) {
    const row = this.statement('selectReservation').get(key, runId, reservationId) as
      BudgetReservationTableRow | undefined;
    return row && reservationOfRow(row);
  }

  private write(key: string, { runId, reservationId }: BudgetKeyReservationRef, writes: BudgetKeyWrites): void {
    const now = this.session.now();
    this.statement('updateTotals').run(...keyTotalsParameters(writes.key), now, key);
    this.statement('upsertReservation').run(
      key,
      runId,
      reservationId,
      ...reservationParameters(writes.reservation),
      now,
    );
  }

  private statement(name: keyof typeof STATEMENTS): BetterSqlite3.Statement {
    let statement = this.prepared.get(name);
    if (statement === undefined) {
      statement = this.db.prepare(STATEMENTS[name]);
      this.prepared.set(name, statement);
    }
    return statement;
  }
}
