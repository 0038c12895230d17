import type { JsonObject } from '../outcome/json-value';
import { guardJsonValue } from '../validation/guard-json-value';
import { RunQueueError } from './run-queue-error';
import { checkAgentName, checkQueueText, isPlainRecord } from './queue-names';

/** The limits of a run's `metadata`: nesting, compact JSON size, values. */
const METADATA_LIMITS = Object.freeze({ maxDepth: 32, maxBytes: 1024 * 1024, maxElements: 10_000 });
/** Smallest and largest `priority` (a PostgreSQL `integer`). */
const PRIORITY_RANGE = [-(2 ** 31), 2 ** 31 - 1] as const;
const OPTION_NAMES: readonly string[] = ['runId', 'metadata', 'maxSteps', 'priority'];

/** An enqueue request whose every field was checked; `metadata` is a fresh plain copy. @internal */
export interface CheckedEnqueueRequest {
  readonly agent: string;
  readonly input: string;
  readonly runId?: string;
  readonly metadata?: JsonObject;
  readonly maxSteps?: number;
  readonly priority: number;
}

/**
 * Checks an `enqueue` request before anything is written: a record with `agent` (a well-formed name),
 * `input` (a string without NUL or lone surrogate) and `options`, whose keys are known and whose values
 * fit: `runId` a well-formed name, `metadata` a plain JSON object (no array, class instance, non-finite
 * number, lone surrogate, `__proto__`/`constructor`/`prototype` key or cycle, at most 32 levels and
 * 1 MiB) without the queue's own key `queue`, `maxSteps` a positive integer, `priority` a PostgreSQL
 * integer. Throws `invalid_queue_options` naming what is wrong. @internal
 */
export function checkEnqueueRequest(request: unknown): CheckedEnqueueRequest {
  if (!isPlainRecord(request)) invalid('the enqueue request must be an object { agent, input, options }');
  const { agent, input, options = {} } = request;
  checkAgentName(agent, 'agent');
  checkQueueText(input, 'input', Infinity);
  if (!isPlainRecord(options)) invalid('options must be an object');
  const unknown = Object.keys(options).filter((key) => !OPTION_NAMES.includes(key));
  if (unknown.length > 0)
    invalid(
      `unknown enqueue option(s) ${unknown.map((key) => JSON.stringify(key)).join(', ')} (known: ${OPTION_NAMES.join(', ')})`,
    );
  const { runId, metadata, maxSteps, priority = 0 } = options;
  if (runId !== undefined) checkAgentName(runId, 'runId');
  if (maxSteps !== undefined && !(Number.isSafeInteger(maxSteps) && (maxSteps as number) >= 1))
    invalid(`maxSteps must be a positive integer, got ${describe(maxSteps)}`);
  if (!(
    Number.isInteger(priority) &&
    (priority as number) >= PRIORITY_RANGE[0] &&
    (priority as number) <= PRIORITY_RANGE[1]
  ))
    invalid(`priority must be an integer from ${PRIORITY_RANGE[0]} to ${PRIORITY_RANGE[1]}, got ${describe(priority)}`);
  return {
    agent,
    input,
    priority: priority as number,
    ...(runId === undefined ? {} : { runId }),
    ...(metadata === undefined ? {} : { metadata: checkMetadata(metadata) }),
    ...(maxSteps === undefined ? {} : { maxSteps: maxSteps as number }),
  };
}

/**
 * A fresh plain copy of `metadata` when it is a plain JSON object without the key `queue`; else
 * `invalid_queue_options`.
 */
function checkMetadata(metadata: unknown): JsonObject {
  if (!isPlainRecord(metadata))
    invalid(`metadata must be a plain JSON object, not ${Array.isArray(metadata) ? 'an array' : describe(metadata)}`);
  if (Object.hasOwn(metadata, 'queue'))
    invalid("metadata may not hold the key 'queue': the queue records its own part of the run there");
  let guarded: ReturnType<typeof guardJsonValue>;
  try {
    guarded = guardJsonValue(metadata, METADATA_LIMITS);
  } catch (error) {
    // A getter or proxy trap that throws.
    throw new RunQueueError('invalid_queue_options', 'metadata could not be read as JSON', { cause: error });
  }
  if (!guarded.ok)
    invalid(
      `metadata is not plain JSON: ${guarded.issues.map((issue) => `${issue.pointer || '/'} ${issue.message}`).join('; ')}`,
    );
  return guarded.value as JsonObject;
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);
  if (typeof value === 'object' && value !== null) return `an instance of ${value.constructor?.name ?? 'no class'}`;
  return typeof value === 'bigint' ? `${value}n` : String(value);
}

function invalid(message: string): never {
  throw new RunQueueError('invalid_queue_options', message);
}
