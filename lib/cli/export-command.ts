import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CliError } from './cli-error';
import { CliIo } from './cli-io';
import { loadRecord, StoreOptions, withStore } from './command-context';

/** Options of `wuwe export`. */
export interface ExportOptions extends StoreOptions {
  /** File to write the complete record to as JSON; `-` writes it to stdout. */
  readonly json?: string;
}

/**
 * `wuwe export <run> --json <file>`: writes the run's complete {@link AgentRunRecord} (conversation, tool
 * calls with their raw admitted outcomes, projections, approvals) as JSON, readable again with
 * `parseAgentRunRecord`.
 */
export async function exportRun(io: CliIo, runId: string, options: ExportOptions): Promise<number> {
  if (options.json === undefined) throw new CliError('usage', 'export needs --json <file> (or --json - for stdout)');
  return withStore(io, { store: options.store }, async (context) => {
    const record = await loadRecord(context.store, runId);
    const text = `${JSON.stringify(record, null, 2)}\n`;
    if (options.json === '-') {
      io.stdout(text);
      return 0;
    }
    const file = resolve(context.cwd, options.json!);
    try {
      writeFileSync(file, text);
    } catch (error) {
      throw new CliError('failed', `cannot write ${file}: ${(error as Error).message}`, { cause: error });
    }
    io.stdout(`wrote run ${runId} (${record.status}) to ${file}: ${Buffer.byteLength(text)} bytes\n`);
    return 0;
  });
}
