/**
 * Limits of one budget key (a tenant, a team, a user), shared by every run that names it in its `budgetKey` option,
 * across runs and processes. The key's spending is kept in the run store. Every field optional; an absent one does
 * not limit (a key with no limits only meters). Token limits count the model's reported usage; `maxCostUsd` needs
 * a price for the run's model in the run's `modelPrices`.
 */
export interface KeyBudgetLimits {
  /** Input tokens of all model requests of the key. */
  readonly maxInputTokens?: number;
  /** Output tokens of all model requests of the key; each request's output is capped to what is left. */
  readonly maxOutputTokens?: number;
  /** Input plus output tokens. */
  readonly maxTotalTokens?: number;
  /** Cost in US dollars, priced by each run's `modelPrices`. */
  readonly maxCostUsd?: number;
  /** Tool calls let through to dispatch. */
  readonly maxToolCalls?: number;
  /** Model requests. */
  readonly maxModelRequests?: number;
}

/** The name of a limit of {@link KeyBudgetLimits}. */
export type KeyBudgetLimitName = keyof KeyBudgetLimits;

/** What a key has spent, reservations in flight included. */
export interface KeyBudgetSpent {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly costUsd: number;
  readonly toolCalls: number;
  readonly modelRequests: number;
}

/** A budget key as the store holds it: its limits and what its runs spent. */
export interface KeyBudgetState {
  readonly key: string;
  readonly limits: KeyBudgetLimits;
  /** Settled usage plus the reservations in flight. */
  readonly spent: KeyBudgetSpent;
  /** Reservations of model requests not settled yet. */
  readonly inFlight: number;
}

/** The price a reservation is made at, in US dollars per million tokens. */
export interface BudgetKeyPrice {
  readonly inputUsdPerMillionTokens: number;
  readonly outputUsdPerMillionTokens: number;
}

/**
 * A reservation against a key: a model request (its estimated input and the output cap it would be sent with) or
 * one tool call. `reservationId` identifies the request or call within the run (the runner uses `model:<turn>` and
 * `call:<turn>:<callId>`): reserving the same id again never counts twice.
 */
export interface BudgetKeyReservation extends BudgetKeyReservationRef {
  readonly kind: 'model_request' | 'tool_call';
  /** Estimated input tokens (a model request). @default 0 */
  readonly inputTokens?: number;
  /** The output cap the request would have; absent when nothing else caps it. */
  readonly outputTokens?: number;
  /** The price of the run's model; needed when the key has `maxCostUsd`. */
  readonly price?: BudgetKeyPrice;
}

/**
 * Result of {@link BudgetKeyStore.reserveKeyBudget}: granted (a model request gets the output cap the key leaves,
 * `undefined` when nothing caps it), or refused with the limit it would cross (nothing is reserved then).
 */
export type BudgetKeyReservationResult =
  | { readonly granted: true; readonly outputTokens?: number; readonly state: KeyBudgetState }
  | {
      readonly granted: false;
      readonly limit: KeyBudgetLimitName;
      readonly max: number;
      readonly state: KeyBudgetState;
    };

/** Names one reservation: the run and its reservation id. */
export interface BudgetKeyReservationRef {
  readonly runId: string;
  readonly reservationId: string;
}

/** The real usage a model request's reservation is settled to. */
export interface BudgetKeyUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Its cost in US dollars (0 without a price). */
  readonly costUsd: number;
}

/**
 * Which limit stopped a run, kept durably beside its record: a limit of the run's own `budget`, or of its
 * `budgetKey` (then `key` names it).
 */
export interface StoredBudgetExhaustion {
  readonly runId: string;
  /** The budget key whose limit tripped; absent for the run's own budget. */
  readonly key?: string;
  readonly limit: string;
  readonly max: number;
  readonly at: 'model_request' | 'tool_call';
  readonly recordedAt: string;
}

/**
 * The budgets of keys shared by runs, kept by a run store (tables `wuwe_budget_keys`, `wuwe_budget_reservations` and
 * `wuwe_budget_exhaustions`, created when the store opens for writing). Each method is one atomic transaction:
 * concurrent runs of one key, in any process, never spend more than its limits allow beyond the reservations in
 * flight.
 */
export interface BudgetKeyStore {
  /**
   * Sets the limits of `key` (creating it with nothing spent, or replacing the limits of a key that has spent:
   * what it spent stays). Throws `record_invalid` for limits that cannot work.
   */
  setKeyBudget(key: string, limits: KeyBudgetLimits): Promise<KeyBudgetState>;

  /** The key's limits and spending, or `undefined` for a key never set. */
  loadKeyBudget(key: string): Promise<KeyBudgetState | undefined>;

  /**
   * Reserves a model request or a tool call against `key`, atomically. A reservation id seen before is granted
   * again without counting twice (a released model request is reserved again, still one request). Throws
   * `budget_key_not_found` for a key never set, `record_invalid` when the key has `maxCostUsd` and no price is given.
   */
  reserveKeyBudget(key: string, reservation: BudgetKeyReservation): Promise<BudgetKeyReservationResult>;

  /** Replaces a model request's reservation by its real usage; settling again (or an unknown id) is a no-op. */
  settleKeyBudget(key: string, reservation: BudgetKeyReservationRef, usage: BudgetKeyUsage): Promise<void>;

  /** Drops the tokens of a reservation whose request failed (the request still counts); a no-op once settled. */
  releaseKeyBudget(key: string, reservation: BudgetKeyReservationRef): Promise<void>;

  /** Records which limit stopped a run (the first one recorded stays). */
  recordBudgetExhaustion(exhaustion: Omit<StoredBudgetExhaustion, 'recordedAt'>): Promise<void>;

  /** Which limit stopped a run, or `undefined` when none did. */
  loadBudgetExhaustion(runId: string): Promise<StoredBudgetExhaustion | undefined>;
}
