import { ToolErrorCategory } from '../outcome/error-codes';
import { JsonValue } from '../outcome/json-value';
import { JsonSchema } from './json-schema';

/** A class whose `@Field`s describe a tool's structured output. */
export type ToolOutputClass = abstract new (...args: never[]) => object;

/** What a tool does to the world. */
export type ToolSideEffect = 'none' | 'read' | 'write' | 'destructive';

/**
 * Whether repeating a call is safe.
 * - `non_idempotent`: a repeat may duplicate an effect; at most one attempt unless compensation is enabled.
 * - `idempotent`: repeating with the same arguments is safe.
 * - `idempotent_with_key`: safe when the provider honours the idempotency key (needs the `idempotencyKey` capability).
 */
export type ToolIdempotency = 'non_idempotent' | 'idempotent' | 'idempotent_with_key';

/** When a call needs approval: never, always, or only for `destructive` tools. */
export type ToolApprovalMode = 'never' | 'always' | 'when_destructive';

/** What the runner does when a structured output does not match `outputSchema`. */
export type ToolOutputValidationMode = 'strict' | 'warning' | 'disabled';

/**
 * Bounded retry policy. The delay before attempt `n + 1` after failed attempt `n` (1-based) is
 * `min(maxDelayMs, initialDelayMs * backoffCoefficient^(n - 1)) * (1 - jitter + 2 * jitter * random())`,
 * capped again at `maxDelayMs` (see {@link contract!computeRetryDelayMs}).
 */
export interface ToolRetryPolicy {
  /** Total attempts including the first. @default 1 */
  readonly maxAttempts: number;
  /** @default 200 */
  readonly initialDelayMs: number;
  /** @default 2 */
  readonly backoffCoefficient: number;
  /** @default 10000 */
  readonly maxDelayMs: number;
  /** Fraction of the delay randomized, 0..1. @default 0.2 */
  readonly jitter: number;
  /**
   * Only failures in these categories (and marked `retryable`) are retried. @default timeout, rate_limited,
   * unavailable, transient
   */
  readonly retryableCategories: readonly ToolErrorCategory[];
}

/** Optimistic concurrency: where the expected version is in the arguments and the new one in the outcome. */
export interface ToolResourceVersionPolicy {
  /** Refuse the call (`precondition_failed`) when the arguments lack a version. @default false */
  readonly requireExpectedVersion: boolean;
  /** JSON Pointer into the arguments. @default '/expectedVersion' */
  readonly argumentPointer: string;
  /** JSON Pointer into the outcome's `data`; a scalar there becomes `outcome.resourceVersion`. @default '/version' */
  readonly outcomePointer: string;
}

/** Partial-effect compensation. */
export interface ToolCompensationPolicy {
  /** The owning provider implements `compensate(invocation, failure)` for this tool. @default false */
  readonly enabled: boolean;
}

/** Long-running tools report heartbeats; silence longer than `idleTimeoutMs` aborts the call. */
export interface ToolHeartbeatPolicy {
  /** Longest silence between heartbeats (and before the first). Never extends `timeoutMs`. */
  readonly idleTimeoutMs: number;
}

/** Provider capabilities a contract can require. */
export interface ToolCapabilities {
  /** The provider receives the full `ToolInvocation` (context, deadline, call id). */
  readonly invocationContext: boolean;
  /** The provider honours the framework-generated idempotency key. */
  readonly idempotencyKey: boolean;
  /** The provider reports heartbeats. */
  readonly heartbeat: boolean;
  /** The provider implements `compensate` for this tool. */
  readonly compensation: boolean;
}

/** Model-output projection ceilings; a contract can only tighten the run's policy. */
export interface ToolOutputProjectionPolicy {
  readonly maxBytes: number;
  readonly maxTokens: number;
}

/**
 * The Tool Contract 2.0 descriptor: what framework and host policy know about a tool.
 * Resolved and frozen: every default is filled (see {@link DEFAULT_TOOL_CONTRACT}).
 */
export interface ToolDescriptor {
  readonly name: string;
  readonly description: string;
  /** Contract version. @default '1' */
  readonly version: string;
  readonly inputSchema: JsonSchema;
  /** Schema of structured output (`data`). @default undefined (no output validation) */
  readonly outputSchema?: JsonSchema;
  /** @default 'none' */
  readonly sideEffect: ToolSideEffect;
  /** @default 'non_idempotent' */
  readonly idempotency: ToolIdempotency;
  /** @default 'when_destructive' */
  readonly approval: ToolApprovalMode;
  /** Hard deadline of one attempt. @default 30000 */
  readonly timeoutMs: number;
  /** @default 'strict' */
  readonly outputValidation: ToolOutputValidationMode;
  readonly retry: ToolRetryPolicy;
  readonly resourceVersion: ToolResourceVersionPolicy;
  readonly compensation: ToolCompensationPolicy;
  /** @default undefined (no heartbeat) */
  readonly heartbeat?: ToolHeartbeatPolicy;
  /** Capabilities required beyond those implied by the other fields. @default all false */
  readonly capabilities: ToolCapabilities;
  /** Host metadata, never sent to the model. @default {} */
  readonly metadata: Readonly<Record<string, JsonValue>>;
  /** Per-tool projection ceilings (tighten only). @default undefined */
  readonly modelOutputProjection?: Partial<ToolOutputProjectionPolicy>;
  /**
   * Most calls of this tool let through to dispatch in one run; a call over it is refused `max_calls_reached`
   * (nothing runs, the run goes on). Counted once per call across retries and resumes. @default undefined (no limit)
   */
  readonly maxCalls?: number;
}

/**
 * What users write in `@Contract(...)`: every field optional, nested policies partial. `Output` is
 * the type of `outputSchema`, so `defineTool` can type a tool's outcome from its output class.
 */
export interface ToolContractOptions<Output extends JsonSchema | ToolOutputClass = JsonSchema | ToolOutputClass> {
  readonly version?: string;
  /**
   * Schema of structured output (`data`): a JSON Schema, or a class with `@Field`s reflected to one
   * (by `@Contract`, `defineTool` and `toolDescriptorOf`; `descriptorFromLlmTool` takes JSON Schema only).
   */
  readonly outputSchema?: Output;
  readonly sideEffect?: ToolSideEffect;
  readonly idempotency?: ToolIdempotency;
  readonly approval?: ToolApprovalMode;
  readonly timeoutMs?: number;
  readonly outputValidation?: ToolOutputValidationMode;
  readonly retry?: Partial<ToolRetryPolicy>;
  readonly resourceVersion?: Partial<ToolResourceVersionPolicy>;
  readonly compensation?: Partial<ToolCompensationPolicy>;
  readonly heartbeat?: ToolHeartbeatPolicy;
  readonly capabilities?: Partial<ToolCapabilities>;
  readonly metadata?: Readonly<Record<string, JsonValue>>;
  readonly modelOutputProjection?: Partial<ToolOutputProjectionPolicy>;
  /** Most calls of this tool in one run (an integer >= 1). @default no limit */
  readonly maxCalls?: number;
}
