import type { PoolClient } from 'pg';
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
import { PostgresRunSession } from './postgres-run-session';

/**
 * The budget tables of a PostgreSQL run store in schema `quoted`, created with `CREATE TABLE IF NOT EXISTS` when the
 * store opens for writing (under the schema's advisory lock). They leave the record tables and the schema version
 * alone.
 */
export function postgresBudgetKeyTables(quoted: string): string {
  return `
CREATE TABLE IF NOT EXISTS ${quoted}.wuwe_budget_keys (
  budget_key TEXT PRIMARY KEY,
  limits_json TEXT NOT NULL,
  input_tokens BIGINT NOT NULL DEFAULT 0,
  output_tokens BIGINT NOT NULL DEFAULT 0,
  cost_usd DOUBLE PRECISION NOT NULL DEFAULT 0,
  tool_calls BIGINT NOT NULL DEFAULT 0,
  model_requests BIGINT NOT NULL DEFAULT 0,
  in_flight BIGINT NOT NULL DEFAULT 0,
  updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS ${quoted}.wuwe_budget_reservations (
  budget_key TEXT NOT NULL REFERENCES ${quoted}.wuwe_budget_keys (budget_key) ON DELETE CASCADE,
  run_id TEXT NOT NULL,
  reservation_id TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('model_request', 'tool_call')),
  state TEXT NOT NULL CHECK (state IN ('reserved', 'settled', 'released')),
  input_tokens BIGINT NOT NULL,
  output_tokens BIGINT NOT NULL,
  cost_usd DOUBLE PRECISION NOT NULL,
  tool_calls BIGINT NOT NULL,
  model_requests BIGINT NOT NULL,
  output_cap BIGINT,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (budget_key, run_id, reservation_id)
);
CREATE TABLE IF NOT EXISTS ${quoted}.wuwe_budget_exhaustions (
  run_id TEXT PRIMARY KEY,
  budget_key TEXT,
  limit_name TEXT NOT NULL,
  max_value DOUBLE PRECISION NOT NULL,
  at TEXT NOT NULL,
  recorded_at TEXT NOT NULL
);`;
}

function statementsIn(quoted: string) {
  return {
    lockKey: `SELECT * FROM ${quoted}.wuwe_budget_keys WHERE budget_key = $1 FOR UPDATE`,
    selectKey: `SELECT * FROM ${quoted}.wuwe_budget_keys WHERE budget_key = $1`,
    upsertLimits: `INSERT INTO ${quoted}.wuwe_budget_keys (budget_key, limits_json, updated_at) VALUES ($1, $2, $3)
      ON CONFLICT (budget_key) DO UPDATE SET limits_json = EXCLUDED.limits_json, updated_at = EXCLUDED.updated_at
      RETURNING *`,
    updateTotals: `UPDATE ${quoted}.wuwe_budget_keys SET input_tokens = $1, output_tokens = $2, cost_usd = $3,
      tool_calls = $4, model_requests = $5, in_flight = $6, updated_at = $7 WHERE budget_key = $8`,
    selectReservation: `SELECT * FROM ${quoted}.wuwe_budget_reservations
      WHERE budget_key = $1 AND run_id = $2 AND reservation_id = $3`,
    upsertReservation: `INSERT INTO ${quoted}.wuwe_budget_reservations (budget_key, run_id, reservation_id, kind, state,
      input_tokens, output_tokens, cost_usd, tool_calls, model_requests, output_cap, updated_at)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
      ON CONFLICT (budget_key, run_id, reservation_id) DO UPDATE SET state = EXCLUDED.state,
      input_tokens = EXCLUDED.input_tokens, output_tokens = EXCLUDED.output_tokens, cost_usd = EXCLUDED.cost_usd,
      tool_calls = EXCLUDED.tool_calls, model_requests = EXCLUDED.model_requests, output_cap = EXCLUDED.output_cap,
      updated_at = EXCLUDED.updated_at`,
    insertExhaustion: `INSERT INTO ${quoted}.wuwe_budget_exhaustions
      (run_id, budget_key, limit_name, max_value, at, recorded_at) VALUES ($1, $2, $3, $4, $5, $6)
      ON CONFLICT (run_id) DO NOTHING`,
    selectExhaustion: `SELECT * FROM ${quoted}.wuwe_budget_exhaustions WHERE run_id = $1`,
  } as const;
}

/**
 * The {@link BudgetKeyStore} of a {@link PostgresRunStore}: each method one transaction that locks the key's row
 * (`SELECT ... FOR UPDATE`) before it decides, so workers reserving against one key queue on that row and never
 * both spend what is left.
 */
export class PostgresBudgetKeys implements BudgetKeyStore {
  private readonly sql: ReturnType<typeof statementsIn>;

  constructor(
    private readonly session: PostgresRunSession,
    quotedSchema: string,
  ) {
    this.sql = statementsIn(quotedSchema);
  }

  /** {@inheritDoc BudgetKeyStore.setKeyBudget} */
  async setKeyBudget(key: string, limits: KeyBudgetLimits): Promise<KeyBudgetState> {
    const checked = checkKeyBudget(key, limits);
    return this.session.transaction({}, async (client) => {
      const values = [key, JSON.stringify(checked), this.session.now()];
      const rows = (await client.query(this.sql.upsertLimits, values)).rows as BudgetKeyTableRow[];
      return keyStateOf(key, budgetKeyOfRow(rows[0]));
    });
  }

  /** {@inheritDoc BudgetKeyStore.loadKeyBudget} */
  async loadKeyBudget(key: string): Promise<KeyBudgetState | undefined> {
    checkId(key, 'budget key');
    return this.session.read({}, async (client) => {
      const row = (await client.query(this.sql.selectKey, [key])).rows[0] as BudgetKeyTableRow | undefined;
      return row && keyStateOf(key, budgetKeyOfRow(row));
    });
  }

  /** {@inheritDoc BudgetKeyStore.reserveKeyBudget} */
  async reserveKeyBudget(key: string, reservation: BudgetKeyReservation): Promise<BudgetKeyReservationResult> {
    checkId(key, 'budget key');
    checkReservation(reservation);
    return this.session.transaction({ runId: reservation.runId }, async (client) => {
      const row = await this.lockedKey(client, key);
      if (row === undefined) throw keyNotFound(key);
      const existing = await this.reservation(client, key, reservation);
      const planned = planKeyReservation(key, budgetKeyOfRow(row), existing, reservation);
      if (planned.writes !== undefined) await this.write(client, key, reservation, planned.writes);
      return planned.result;
    });
  }

  /** {@inheritDoc BudgetKeyStore.settleKeyBudget} */
  async settleKeyBudget(key: string, reservation: BudgetKeyReservationRef, usage: BudgetKeyUsage): Promise<void> {
    checkKeyUsage(usage);
    await this.session.transaction({ runId: reservation.runId }, async (client) => {
      const row = await this.lockedKey(client, key);
      if (row === undefined) return;
      const writes = planKeySettlement(budgetKeyOfRow(row), await this.reservation(client, key, reservation), usage);
      if (writes !== undefined) await this.write(client, key, reservation, writes);
    });
  }

  /** {@inheritDoc BudgetKeyStore.releaseKeyBudget} */
  async releaseKeyBudget(key: string, reservation: BudgetKeyReservationRef): Promise<void> {
    await this.session.transaction({ runId: reservation.runId }, async (client) => {
      const row = await this.lockedKey(client, key);
      if (row === undefined) return;
      const writes = planKeyRelease(budgetKeyOfRow(row), await this.reservation(client, key, reservation));
      if (writes !== undefined) await this.write(client, key, reservation, writes);
    });
  }

  /** {@inheritDoc BudgetKeyStore.recordBudgetExhaustion} */
  async recordBudgetExhaustion(exhaustion: Omit<StoredBudgetExhaustion, 'recordedAt'>): Promise<void> {
    checkId(exhaustion.runId, 'runId');
    const { runId, key, limit, max, at } = exhaustion;
    await this.session.transaction({ runId }, async (client) => {
      await client.query(this.sql.insertExhaustion, [runId, key ?? null, limit, max, at, this.session.now()]);
    });
  }

  /** {@inheritDoc BudgetKeyStore.loadBudgetExhaustion} */
  async loadBudgetExhaustion(runId: string): Promise<StoredBudgetExhaustion | undefined> {
    return this.session.read({ runId }, async (client) => {
      const row = (await client.query(this.sql.selectExhaustion, [runId])).rows[0] as
        BudgetExhaustionTableRow | undefined;
      return row && exhaustionOfRow(row);
    });
  }

  private async lockedKey(client: PoolClient, key: string): Promise<BudgetKeyTableRow | undefined> {
    return (await client.query(this.sql.lockKey, [key])).rows[0] as BudgetKeyTableRow | undefined;
  }

  private async reservation(client: PoolClient, key: string, { runId, reservationId }: BudgetKeyReservationRef) {
    const values = [key, runId, reservationId];
    const row = (await client.query(this.sql.selectReservation, values)).rows[0] as
      BudgetReservationTableRow | undefined;
    return row && reservationOfRow(row);
  }

  private async write(
    client: PoolClient,
    key: string,
    { runId, reservationId }: BudgetKeyReservationRef,
    writes: BudgetKeyWrites,
  ): Promise<void> {
    const now = this.session.now();
    await client.query(this.sql.updateTotals, [...keyTotalsParameters(writes.key), now, key]);
    const values = [key, runId, reservationId, ...reservationParameters(writes.reservation), now];
    await client.query(this.sql.upsertReservation, values);
  }
}
