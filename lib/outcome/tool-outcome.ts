import { mergeOwn } from './merge-own';
import {
  DEFAULT_RETRYABLE_CATEGORIES,
  STANDARD_TOOL_ERROR_CODES,
  StandardToolErrorCode,
  ToolErrorCategory,
} from './error-codes';
import { JsonValue } from './json-value';
import { ToolImage } from './tool-image';

/** Partial-effect compensation state of an outcome. */
export type CompensationState = 'none' | 'required' | 'completed' | 'failed';

/** The error part of a failed {@link ToolOutcome}. */
export interface ToolOutcomeError {
  /** Stable code: one of the standard codes or a tool's own. */
  readonly code: string;
  /** Semantic category; retries decide on it. */
  readonly category: ToolErrorCategory;
  /** Human- and model-readable explanation. */
  readonly message: string;
  /** Whether repeating the same call may succeed. */
  readonly retryable: boolean;
  /** Structured details, e.g. `{ issues: [...] }` for `invalid_arguments`. Sent to the model. */
  readonly details?: JsonValue;
}

/**
 * A file or blob a tool produced, referenced rather than inlined; never sent to the model (images the model should see
 * go in `images`).
 */
export interface ToolArtifact {
  readonly name: string;
  readonly uri?: string;
  readonly mimeType?: string;
  readonly sizeBytes?: number;
}

/** Fields every {@link ToolOutcome} may carry, success or failure. */
export interface ToolOutcomeFields {
  /** Model-visible text of a success. */
  readonly text?: string;
  /** Structured JSON data of a success; when present it is what the model sees. */
  readonly data?: JsonValue;
  /** Version of the resource after the call (optimistic concurrency). */
  readonly resourceVersion?: string | number;
  /** Partial-effect compensation state. @default 'none' */
  readonly compensation?: CompensationState;
  /** Artifacts produced by the call. */
  readonly artifacts?: readonly ToolArtifact[];
  /**
   * Images the model sees with a success's text or data (inline base64, see {@link ToolImage}), on
   * clients whose provider takes images in tool results. Counted against the run's `toolImages`
   * policy, not the text ceilings; a failure's images are not sent.
   */
  readonly images?: readonly ToolImage[];
  /** Host metadata (validation warnings, timings). Never sent to the model. */
  readonly metadata?: Readonly<Record<string, JsonValue>>;
}

/**
 * A successful {@link ToolOutcome}: `ok` is true and there is no `error`. `Data` types `data`
 * (a tool's typed output, see {@link CheckedToolOutcome}); it defaults to any JSON value.
 */
export interface ToolSuccessOutcome<Data extends JsonValue = JsonValue> extends ToolOutcomeFields {
  /** True for success. */
  readonly ok: true;
  /** Never present on a success. */
  readonly error?: undefined;
  /** Structured JSON data of a success; when present it is what the model sees. */
  readonly data?: Data;
}

/** A failed {@link ToolOutcome}: `ok` is false and `error` says why. */
export interface ToolFailureOutcome extends ToolOutcomeFields {
  /** False for failure. */
  readonly ok: false;
  /** Code, category, message and retryability of the failure. */
  readonly error: ToolOutcomeError;
}

/**
 * The result of one tool call (the seed's `tool_outcome`): a union on `ok`, so
 * `if (!outcome.ok) outcome.error.code` type-checks. A plain-object type: a literal
 * `{ ok: false, error: {...} }` returned by a tool or provider is accepted wherever an outcome is.
 */
export type ToolOutcome<Data extends JsonValue = JsonValue> = ToolSuccessOutcome<Data> | ToolFailureOutcome;

/**
 * The outcome of a call to a tool whose contract has an `outputSchema` checked strictly (the
 * default `outputValidation`): the runner turns a success without `data`, or with `data` that does
 * not match, into an `output_validation` failure, so when `ok` is true `data` is there and has the
 * output's type.
 */
export type CheckedToolOutcome<Data extends JsonValue> =
  (ToolSuccessOutcome<Data> & { readonly data: Data }) | ToolFailureOutcome;

/** Alias of {@link ToolOutcome}, the seed's `llm_tool_result`. */
export type LlmToolResult = ToolOutcome;

/** A success carrying model-visible text. */
export function toolText(text: string, extra?: Omit<ToolOutcome, 'ok' | 'text' | 'error'>): ToolOutcome {
  return mergeOwn(extra, { ok: true, text });
}

/** A success carrying structured JSON data. */
export function toolData(data: JsonValue, extra?: Omit<ToolOutcome, 'ok' | 'data' | 'error'>): ToolOutcome {
  return mergeOwn(extra, { ok: true, data });
}

/** Fields of {@link toolFailure}; `category` and `retryable` default from the standard code table. */
export interface ToolFailureOptions {
  readonly code: string;
  readonly message: string;
  /** @default the standard category of `code`, else `internal` */
  readonly category?: ToolErrorCategory;
  /** @default true for `timeout`, `rate_limited`, `unavailable` and `transient` categories */
  readonly retryable?: boolean;
  readonly details?: JsonValue;
  readonly compensation?: CompensationState;
  readonly metadata?: Readonly<Record<string, JsonValue>>;
}

/** A failure outcome. */
export function toolFailure(options: ToolFailureOptions): ToolOutcome {
  const category =
    options.category ?? (STANDARD_TOOL_ERROR_CODES as Record<string, ToolErrorCategory>)[options.code] ?? 'internal';
  const retryable = options.retryable ?? DEFAULT_RETRYABLE_CATEGORIES.includes(category);
  const error: ToolOutcomeError =
    options.details === undefined
      ? { code: options.code, category, message: options.message, retryable }
      : { code: options.code, category, message: options.message, retryable, details: options.details };
  return {
    ok: false,
    error,
    ...(options.compensation !== undefined ? { compensation: options.compensation } : {}),
    ...(options.metadata !== undefined ? { metadata: options.metadata } : {}),
  };
}

/** Shorthand for a failure with a standard code and its standard category. */
export function standardFailure(code: StandardToolErrorCode, message: string, details?: JsonValue): ToolOutcome {
  return toolFailure({ code, message, details });
}

const OUTCOME_KEYS = new Set([
  'ok',
  'text',
  'data',
  'error',
  'resourceVersion',
  'compensation',
  'artifacts',
  'images',
  'metadata',
]);

/**
 * True when `value` has the shape of a {@link ToolOutcome}: an object with a boolean `ok`, no keys
 * besides the outcome's own, and for a failure an `error` with string `code` and `message`.
 */
export function isToolOutcome(value: unknown): value is ToolOutcome {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  if (typeof record.ok !== 'boolean') return false;
  for (const key of Object.keys(record)) if (!OUTCOME_KEYS.has(key)) return false;
  if (record.ok) return record.error === undefined;
  const error = record.error as Record<string, unknown> | undefined;
  return (
    typeof error === 'object' && error !== null && typeof error.code === 'string' && typeof error.message === 'string'
  );
}

/**
 * Fills the defaults of an outcome-shaped literal: a failure gets its standard category and
 * retryability when the literal left them out.
 */
export function normalizeToolOutcome(outcome: ToolOutcome): ToolOutcome {
  if (outcome.ok || outcome.error === undefined) return outcome;
  const error = outcome.error;
  if (typeof error.category === 'string' && typeof error.retryable === 'boolean') return outcome;
  const filled = toolFailure({
    code: error.code,
    message: error.message,
    category: error.category,
    retryable: error.retryable,
    details: error.details,
  });
  return mergeOwn(outcome, { ok: false, error: filled.ok ? error : filled.error });
}
