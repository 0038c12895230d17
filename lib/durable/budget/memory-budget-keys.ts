import {
  BudgetKeyRow,
  BudgetKeyWrites,
  BudgetReservationRow,
  checkKeyBudget,
  checkKeyUsage,
  checkReservation,
  keyNotFound,
  keyStateOf,
  NO_BUDGET_AMOUNTS,
  planKeyRelease,
  planKeyReservation,
  planKeySettlement,
} from '../rules/budget-key-rules';
import { checkId, isoTime } from '../rules/value-rules';
import type {
  BudgetKeyReservation,
  BudgetKeyReservationRef,
  BudgetKeyReservationResult,
  BudgetKeyStore,
  BudgetKeyUsage,
  KeyBudgetLimits,
  KeyBudgetState,
  StoredBudgetExhaustion,
} from './budget-keys';

/**
 * The budget keys of a {@link MemoryRunStore}: the reference behaviour of the SQL stores' tables. Each method runs
 * to its end without yielding, so it is atomic within the process.
 */
export class MemoryBudgetKeys implements BudgetKeyStore {
  private readonly keys = new Map<string, BudgetKeyRow>();
  private readonly reservations = new Map<string, BudgetReservationRow>();
  private readonly exhaustions = new Map<string, StoredBudgetExhaustion>();

  constructor(
    private readonly clock: () => number,
    private readonly checkOpen: () => void,
  ) {}

  /** {@inheritDoc BudgetKeyStore.setKeyBudget} */
  async setKeyBudget(key: string, limits: KeyBudgetLimits): Promise<KeyBudgetState> {
    this.checkOpen();
    const checked = checkKeyBudget(key, limits);
    const row = this.keys.get(key) ?? { limits: checked, spent: NO_BUDGET_AMOUNTS, inFlight: 0 };
    const updated = { ...row, limits: checked };
    this.keys.set(key, updated);
    return keyStateOf(key, updated);
  }

  /** {@inheritDoc BudgetKeyStore.loadKeyBudget} */
  async loadKeyBudget(key: string): Promise<KeyBudgetState | undefined> {
    this.checkOpen();
    const row = this.keys.get(key);
    return row && keyStateOf(key, row);
  }

  /** {@inheritDoc BudgetKeyStore.reserveKeyBudget} */
  async reserveKeyBudget(key: string, reservation: BudgetKeyReservation): Promise<BudgetKeyReservationResult> {
    this.checkOpen();
    checkReservation(reservation);
    const row = this.keys.get(key);
    if (row === undefined) throw keyNotFound(key);
    const planned = planKeyReservation(key, row, this.reservations.get(slot(key, reservation)), reservation);
    if (planned.writes !== undefined) this.write(key, reservation, planned.writes);
    return planned.result;
  }

  /** {@inheritDoc BudgetKeyStore.settleKeyBudget} */
  async settleKeyBudget(key: string, reservation: BudgetKeyReservationRef, usage: BudgetKeyUsage): Promise<void> {
    this.checkOpen();
    checkKeyUsage(usage);
    const row = this.keys.get(key);
    if (row === undefined) return;
    const writes = planKeySettlement(row, this.reservations.get(slot(key, reservation)), usage);
    if (writes !== undefined) this.write(key, reservation, writes);
  }

  /** {@inheritDoc BudgetKeyStore.releaseKeyBudget} */
  async releaseKeyBudget(key: string, reservation: BudgetKeyReservationRef): Promise<void> {
    this.checkOpen();
    const row = this.keys.get(key);
    if (row === undefined) return;
    const writes = planKeyRelease(row, this.reservations.get(slot(key, reservation)));
    if (writes !== undefined) this.write(key, reservation, writes);
  }

  /** {@inheritDoc BudgetKeyStore.recordBudgetExhaustion} */
  async recordBudgetExhaustion(exhaustion: Omit<StoredBudgetExhaustion, 'recordedAt'>): Promise<void> {
    this.checkOpen();
    checkId(exhaustion.runId, 'runId');
    if (!this.exhaustions.has(exhaustion.runId))
      this.exhaustions.set(exhaustion.runId, { ...exhaustion, recordedAt: isoTime(this.clock) });
  }

  /** {@inheritDoc BudgetKeyStore.loadBudgetExhaustion} */
  async loadBudgetExhaustion(runId: string): Promise<StoredBudgetExhaustion | undefined> {
    this.checkOpen();
    return this.exhaustions.get(runId);
  }

  private write(key: string, reservation: BudgetKeyReservationRef, writes: BudgetKeyWrites): void {
    this.keys.set(key, writes.key);
    this.reservations.set(slot(key, reservation), writes.reservation);
  }
}

function slot(key: string, { runId, reservationId }: BudgetKeyReservationRef): string {
  return JSON.stringify([key, runId, reservationId]);
}
