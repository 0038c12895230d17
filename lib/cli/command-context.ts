import { AgentRunRecord } from '../durable/agent-run-record';
import type { ChainedRunRecord, RecordKey } from '../durable/chain/record-chain';
import { RecordChainer } from '../durable/chain/record-chainer';
import { RunStore } from '../durable/run-store';
import { CliError } from './cli-error';
import { CliIo } from './cli-io';
import { DEFAULT_STORE_SPEC, openStore, StoreAccess } from './open-store';
import { readRecordKeyFile } from './record-key-file';
import { terminalSafeJson } from './terminal-text';

/** Options every command that reads a store takes. */
export interface StoreOptions {
  /** `sqlite:<path>` or `postgres://...`. @default `WUWE_STORE`, else {@link DEFAULT_STORE_SPEC} */
  readonly store?: string;
  /**
   * The record keys of a store written with a `recordKey` (see {@link readRecordKeyFile}): the store verifies
   * every run it loads with them, and signs what the command writes with the first. @default none: a plain chain
   */
  readonly keyFile?: string;
}

/** What a command runs with: the io, the output mode and the store. */
export interface CommandContext {
  readonly io: CliIo;
  readonly cwd: string;
  readonly json: boolean;
  readonly store: RunStore;
  /** The store's `--store` value (or `WUWE_STORE`, or the default). */
  readonly storeSpec: string;
  /** The record keys of `--key-file`, the store's `recordKey`. */
  readonly recordKey?: readonly RecordKey[];
}

/**
 * Opens the store named by the options (with the record keys of `keyFile`), runs `body`, and closes the store
 * whatever happens. The store is read-only unless the command says it writes (`access: 'write'`).
 */
export async function withStore<T>(
  io: CliIo,
  options: StoreOptions & { readonly json?: boolean; readonly access?: StoreAccess },
  body: (context: CommandContext) => Promise<T>,
): Promise<T> {
  const cwd = io.cwd ?? process.cwd();
  const spec = options.store ?? (io.env?.WUWE_STORE || DEFAULT_STORE_SPEC);
  const recordKey = options.keyFile === undefined ? undefined : readRecordKeyFile(cwd, options.keyFile);
  const store = await openStore(spec, cwd, options.access ?? 'read', recordKey);
  try {
    return await body({
      io,
      cwd,
      json: options.json === true,
      store,
      storeSpec: spec,
      ...(recordKey === undefined ? {} : { recordKey }),
    });
  } finally {
    await store.close().catch(() => undefined);
  }
}

/** Loads a run, or throws a `not_found` {@link CliError}. */
export async function loadRecord(store: RunStore, runId: string): Promise<AgentRunRecord> {
  const record = await store.loadRun(runId);
  if (record === undefined) throw new CliError('not_found', `no run '${runId}' in the store`);
  return record;
}

/**
 * Loads a run with its chain, verified as `loadRun` verifies it (the chain, and with `--key-file` the MACs):
 * throws `record_tampered`, `record_key_missing` or `record_invalid` as the store would, or a `not_found`
 * {@link CliError}. One read, so the head shown is the head of the record shown.
 */
export async function loadChainedRecord(context: CommandContext, runId: string): Promise<ChainedRunRecord> {
  const record = await context.store.exportRun(runId);
  if (record === undefined) throw new CliError('not_found', `no run '${runId}' in the store`);
  new RecordChainer({ recordKey: context.recordKey }).verified(record);
  return record;
}

/** Writes `value` as a JSON document in JSON mode, else `text`. */
export function emit(context: { readonly io: CliIo; readonly json: boolean }, value: unknown, text: string): void {
  context.io.stdout(context.json ? `${terminalSafeJson(value, 2)}\n` : text);
}
