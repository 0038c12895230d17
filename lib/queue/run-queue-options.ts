import type { RunStore } from '../durable/run-store';
import { checkAgentName } from './queue-names';
import { RunQueueError } from './run-queue-error';

/** Options of {@link RunQueue.open}. Every duration carries its unit in its name. */
export interface RunQueueOptions {
  /** The store the runs live in (a `PostgresRunStore` on the same database, for several machines). */
  readonly store: RunStore;
  /** The PostgreSQL database of the job queue (pg-boss), normally the store's. */
  readonly connectionString: string;
  /** PostgreSQL schema of the queue's tables (pg-boss's and `wuwe_queue_cancellations`). @default 'wuwe_queue' */
  readonly schema?: string;
  /** Name of the job queue; a second queue name gives a separate pool of workers. @default 'wuwe-runs' */
  readonly name?: string;
  /**
   * How many times a worker may take up a run's job before the run goes to the dead letters: each
   * failure (the run failed, the worker threw) and each expiry (the worker died) counts one.
   * @default 5
   */
  readonly maxAttempts?: number;
  /**
   * How long after its worker's last heartbeat a taken job counts as abandoned and is given to another
   * worker (a worker beats for its jobs every `cancelCheckIntervalMs`, so a long run does not expire while
   * its worker lives). A job that expires while its worker is alive anyway (a stalled process) costs an
   * attempt but nothing else: the store's lease keeps the second worker off the run. @default 60
   */
  readonly expireAfterSeconds?: number;
  /** Wait before a failed job is tried again. @default 5 */
  readonly retryDelaySeconds?: number;
  /** How often abandoned (expired) jobs are looked for; one process does it at a time. @default 30 */
  readonly superviseIntervalSeconds?: number;
  /** Connections of the queue's pool in this process. @default 10 */
  readonly maxConnections?: number;
  /** Agents `enqueue` accepts; when omitted, any name is accepted and a worker without it fails the job. */
  readonly agents?: readonly string[];
  /** Hears failures of the queue's background work (a lost connection while supervising). @default ignored */
  readonly onError?: (error: Error) => void;
}

/** The queue's name when none is given. */
export const DEFAULT_RUN_QUEUE_NAME = 'wuwe-runs';
/** The schema of the queue's tables when none is given. */
export const DEFAULT_RUN_QUEUE_SCHEMA = 'wuwe_queue';

/** {@link RunQueueOptions} with every default filled. @internal */
export interface ResolvedRunQueueOptions extends Required<Omit<RunQueueOptions, 'agents' | 'onError'>> {
  readonly agents?: readonly string[];
  readonly onError?: (error: Error) => void;
}

/**
 * Validates the options (numbers in range, names well-formed, `agents` an array of agent names) and fills the defaults;
 * throws `invalid_queue_options`. @internal
 */
export function resolveRunQueueOptions(options: RunQueueOptions): ResolvedRunQueueOptions {
  const resolved: ResolvedRunQueueOptions = {
    schema: DEFAULT_RUN_QUEUE_SCHEMA,
    name: DEFAULT_RUN_QUEUE_NAME,
    maxAttempts: 5,
    expireAfterSeconds: 60,
    retryDelaySeconds: 5,
    superviseIntervalSeconds: 30,
    maxConnections: 10,
    ...definedOnly(options),
  } as ResolvedRunQueueOptions;
  if (typeof resolved.connectionString !== 'string' || resolved.connectionString === '')
    invalid('connectionString must be a PostgreSQL URL');
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(resolved.schema))
    invalid(`schema must be a plain PostgreSQL identifier, not '${resolved.schema}'`);
  if (!/^[A-Za-z0-9_-]{1,60}$/.test(resolved.name))
    invalid(`name may hold 1 to 60 letters, digits, '_' and '-' only, not '${resolved.name}'`);
  integerAtLeast('maxAttempts', resolved.maxAttempts, 1, MAX_INT);
  integerAtLeast('expireAfterSeconds', resolved.expireAfterSeconds, 1, MAX_INT);
  integerAtLeast('retryDelaySeconds', resolved.retryDelaySeconds, 0, MAX_INT);
  integerAtLeast('superviseIntervalSeconds', resolved.superviseIntervalSeconds, 1, Math.floor(MAX_TIMER_MS / 1000));
  integerAtLeast('maxConnections', resolved.maxConnections, 2, 10_000);
  if (resolved.agents !== undefined) {
    if (!Array.isArray(resolved.agents)) invalid('agents must be an array of agent names');
    for (const agent of resolved.agents as unknown[]) checkAgentName(agent, 'each of agents');
  }
  if (resolved.onError !== undefined && typeof resolved.onError !== 'function') invalid('onError must be a function');
  return Object.freeze({
    ...resolved,
    ...(resolved.agents === undefined ? {} : { agents: Object.freeze([...resolved.agents]) }),
  });
}

/** Largest PostgreSQL `integer` (pg-boss keeps retry limits and delays in such columns). @internal */
export const MAX_INT = 2 ** 31 - 1;
/** Longest delay a Node.js timer keeps (a longer one fires at once). @internal */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** Throws `invalid_queue_options` unless `value` is an integer from `minimum` to `maximum`. @internal */
export function integerAtLeast(name: string, value: unknown, minimum: number, maximum = Number.MAX_SAFE_INTEGER): void {
  if (!(Number.isInteger(value) && (value as number) >= minimum && (value as number) <= maximum))
    invalid(
      `${name} must be an integer from ${minimum} to ${maximum}, got ${typeof value === 'string' ? JSON.stringify(value) : String(value)}`,
    );
}

function invalid(message: string): never {
  throw new RunQueueError('invalid_queue_options', message);
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}
