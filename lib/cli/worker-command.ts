import { basename, extname } from 'node:path';
import { openQueueWorker } from '../queue/open-queue-worker';
import type { QueueAgent } from '../queue/queue-agent';
import { messageOf } from '../errors/message-of';
import { CliError } from './cli-error';
import { CliIo } from './cli-io';
import { loadAgent } from './load-agent';
import { parseStoreSpec } from './open-store';
import { readRecordKeyFile } from './record-key-file';
import { oneLine } from './terminal-text';

/** Options of `wuwe worker`. */
export interface WorkerOptions {
  /** `postgres://...` (a `schema` query parameter names the store's schema). */
  readonly store?: string;
  /** `<module>` or `<name>=<module>`, repeatable; the name defaults to the module's file name without extension. */
  readonly agent: readonly string[];
  /** Runs at once. @default 4 */
  readonly concurrency?: string;
  /** Schema of the queue's tables. @default 'wuwe_queue' */
  readonly queueSchema?: string;
  /** Name of the job queue. @default 'wuwe-runs' */
  readonly queueName?: string;
  /** Lease of each run, in milliseconds. @default 60000 */
  readonly leaseTtlMs?: string;
  /** A JSON file of the store's record keys (as for the other commands): runs are signed and verified with them. */
  readonly keyFile?: string;
}

/**
 * `wuwe worker --store postgres://... --agent <module>`: takes runs from the queue and executes them with
 * the agents' runners until SIGINT or SIGTERM, then drains (the runs it executes end) and exits 0.
 * Usage errors (2): a store that is not PostgreSQL, a bad number, two agents with one name.
 */
export async function runWorker(io: CliIo, options: WorkerOptions): Promise<number> {
  const cwd = io.cwd ?? process.cwd();
  const spec = options.store ?? io.env?.WUWE_STORE;
  const parsed = spec === undefined ? undefined : parseStoreSpec(spec, cwd);
  if (parsed?.kind !== 'postgres')
    throw new CliError('usage', 'wuwe worker needs --store postgres://... (the queue lives in PostgreSQL)');
  const concurrency = positiveInteger('--concurrency', options.concurrency ?? '4');
  const leaseTtlMs = positiveInteger('--lease-ttl-ms', options.leaseTtlMs ?? '60000');
  const recordKey = options.keyFile === undefined ? undefined : readRecordKeyFile(cwd, options.keyFile);
  // A Map, not an object: an agent may be named `constructor` or `__proto__`.
  const agents = new Map<string, QueueAgent>();
  for (const entry of options.agent) {
    const equals = entry.indexOf('=');
    const [name, module] =
      equals > 0 ? [entry.slice(0, equals), entry.slice(equals + 1)] : [basename(entry, extname(entry)), entry];
    if (agents.has(name))
      throw new CliError('usage', `two agents are named '${name}': name them with --agent <name>=<module>`);
    agents.set(name, await loadAgent(module, cwd));
  }
  const worker = await openQueueWorker({
    connectionString: parsed.connectionString,
    ...(parsed.schema === undefined ? {} : { storeSchema: parsed.schema }),
    ...(recordKey === undefined ? {} : { recordKey }),
    queue: {
      ...(options.queueSchema === undefined ? {} : { schema: options.queueSchema }),
      ...(options.queueName === undefined ? {} : { name: options.queueName }),
      onError: (error) => io.stderr(`${oneLine`queue: ${messageOf(error)}`}\n`),
    },
    // Object.fromEntries defines own properties, `__proto__` included.
    agents: Object.fromEntries(agents),
    concurrency,
    leaseTtlMs,
    onError: (error, runId) =>
      io.stderr(`${runId === undefined ? 'worker' : oneLine`run ${runId}`}${oneLine`: ${messageOf(error)}`}\n`),
  });
  let stopped = false;
  try {
    io.stderr(
      `worker ${worker.workerId}: agents ${[...agents.keys()].join(', ')}; ${concurrency} at a time; stop with SIGINT or SIGTERM\n`,
    );
    await untilShutdown(io);
    io.stderr('stopping: waiting for the runs being executed to end\n');
    await worker.stop();
    stopped = true;
    io.stderr('stopped\n');
    return 0;
  } finally {
    if (!stopped) await worker.stop({ timeoutMs: 0 }).catch(() => undefined);
  }
}

function positiveInteger(option: string, value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1)
    throw new CliError('usage', `${option} must be a positive integer, not '${value}'`);
  return number;
}

async function untilShutdown(io: CliIo): Promise<void> {
  if (io.shutdown !== undefined) {
    if (io.shutdown.aborted) return;
    await new Promise<void>((resolve) => io.shutdown!.addEventListener('abort', () => resolve(), { once: true }));
    return;
  }
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
