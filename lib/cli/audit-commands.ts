import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ChainedRunRecord } from '../durable/chain/record-chain';
import { parseRunRecordJsonLines, runRecordToJsonLines } from '../durable/chain/record-json-lines';
import { RunRecordVerification, verifyRunRecord } from '../durable/chain/verify-run-record';
import { RunStore } from '../durable/run-store';
import { CliError } from './cli-error';
import { CliIo } from './cli-io';
import { emit, StoreOptions, withStore } from './command-context';
import { oneLine } from './terminal-text';
import { readRecordKeyFile } from './record-key-file';

/** Options of `wuwe audit verify`. */
export interface AuditVerifyOptions extends StoreOptions {
  /** An export of `wuwe audit export` to verify offline, instead of a run of the store. */
  readonly file?: string;
  readonly json?: boolean;
}

/** Options of `wuwe audit export`. */
export interface AuditExportOptions extends StoreOptions {
  /** File to write the JSON Lines to; `-` (the default) writes them to stdout. */
  readonly out?: string;
}

/**
 * `wuwe audit verify <run>`: checks a stored run against its hash chain (`verifyRunRecord`) without refusing
 * a damaged record, so it can be inspected; `--file <export.jsonl>` checks an export offline instead. Prints
 * the entry count, head and migrated entries and returns 0, or the first bad entry and returns 1.
 */
export async function auditVerify(io: CliIo, runId: string | undefined, options: AuditVerifyOptions): Promise<number> {
  const cwd = io.cwd ?? process.cwd();
  if (options.file !== undefined && runId !== undefined)
    throw new CliError('usage', 'give a run id or --file <export.jsonl>, not both');
  if (options.file !== undefined && options.store !== undefined)
    throw new CliError('usage', '--file is verified offline: it takes no --store');
  if (options.file === undefined && runId === undefined)
    throw new CliError('usage', 'audit verify needs a run id or --file <export.jsonl>');
  const keys = options.keyFile === undefined ? undefined : readRecordKeyFile(cwd, options.keyFile);
  const context = { io, json: options.json === true };
  if (options.file !== undefined) {
    const record = parseRunRecordJsonLines(readExport(cwd, options.file));
    return report(context, record.runId, verifyRunRecord(record, { keys }));
  }
  // The store only reads the chain here (exportRun does not verify): the keys are the verification's.
  return withStore(io, { store: options.store }, async ({ store }) => {
    const record = await exportedRecord(store, runId!);
    return report(context, record.runId, verifyRunRecord(record, { keys }));
  });
}

/**
 * `wuwe audit export <run>`: writes the run's record and its chain, as stored and unverified, as JSON Lines
 * (`runRecordToJsonLines`), for `wuwe audit verify --file` or `parseRunRecordJsonLines`.
 */
export async function auditExport(io: CliIo, runId: string, options: AuditExportOptions): Promise<number> {
  const target = options.out ?? '-';
  return withStore(io, { store: options.store }, async (context) => {
    const record = await exportedRecord(context.store, runId);
    const text = runRecordToJsonLines(record);
    if (target === '-') {
      io.stdout(text);
      return 0;
    }
    const file = resolve(context.cwd, target);
    try {
      writeFileSync(file, text);
    } catch (error) {
      throw new CliError('failed', `cannot write ${file}: ${(error as Error).message}`, { cause: error });
    }
    io.stdout(
      `${oneLine`wrote run ${runId} (${record.chain.entries.length} chain entries) to ${file}: ${Buffer.byteLength(text)} bytes`}\n`,
    );
    return 0;
  });
}

/** The run with its chain as stored, or a `not_found` {@link CliError}. */
async function exportedRecord(store: RunStore, runId: string): Promise<ChainedRunRecord> {
  const record = await store.exportRun(runId);
  if (record === undefined) throw new CliError('not_found', `no run '${runId}' in the store`);
  return record;
}

/** The text of an export file; a missing file is `not_found`. */
function readExport(cwd: string, path: string): string {
  const file = resolve(cwd, path);
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError('not_found', `cannot read the export ${file}: ${(error as Error).message}`, { cause: error });
  }
}

/** Prints a verification (one line, or a JSON document) and returns its exit code: 0 sound, 1 not. */
function report(
  context: { readonly io: CliIo; readonly json: boolean },
  runId: string,
  verification: RunRecordVerification,
): number {
  if (verification.ok) {
    const { entries, head, migratedEntries } = verification;
    emit(
      context,
      { runId, ...verification },
      `${oneLine`verified: run ${runId}: ${entries} entries, head ${head ?? '(none)'}, ${migratedEntries} from migration`}\n`,
    );
    return 0;
  }
  const { entry, reason } = verification;
  emit(
    context,
    { runId, ...verification },
    `${oneLine`not verified: run ${runId}: entry ${entry.index} (${entry.kind} ${entry.subject}): ${reason}`}\n`,
  );
  return 1;
}
