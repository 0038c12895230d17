import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { AgentRunRecord } from '../durable/agent-run-record';
import { CliError } from './cli-error';
import { CliIo } from './cli-io';
import { loadChainedRecord, StoreOptions, withStore } from './command-context';
import { renderRunHtml } from './html-timeline';
import { loadRunTree } from '../agents/run-tree';
import { progressLine } from './progress-line';
import { oneLine, terminalSafeJson } from './terminal-text';
import { JournalEntry, RunEventJournal, RunEventJournalError } from '../runner/run-event-journal';

/** Options of `wuwe export`. */
export interface ExportOptions extends StoreOptions {
  /** File to write the complete record to as JSON; `-` writes it to stdout. */
  readonly json?: string;
  /** File to write a self-contained HTML page of the run to; `-` writes it to stdout. */
  readonly html?: string;
  /** An event journal of the run (JSON lines of a `RunEventJournal`) for the HTML timeline's timed lanes. */
  readonly events?: string;
}

/**
 * `wuwe export <run> --json <file>`: writes the run's complete {@link AgentRunRecord} (conversation, tool
 * calls with their raw admitted outcomes, projections, approvals) as JSON, readable again with
 * `parseAgentRunRecord`; and/or `--html <file>`: a self-contained page of the run (see {@link renderRunHtml}), with the
 * child runs of its agent tool calls nested under the calls that started them.
 */
export async function exportRun(io: CliIo, runId: string, options: ExportOptions): Promise<number> {
  if (options.json === undefined && options.html === undefined)
    throw new CliError('usage', 'export needs --json <file> or --html <file> (- for stdout)');
  if (options.json === '-' && options.html === '-')
    throw new CliError('usage', 'only one of --json and --html can write to stdout');
  if (options.events !== undefined && options.html === undefined)
    throw new CliError('usage', '--events is read for the HTML timeline: give --html <file> too');
  return withStore(io, { store: options.store, keyFile: options.keyFile }, async (context) => {
    // Nothing on the terminal when a document goes to stdout.
    const progress = progressLine(io, options.json !== '-' && options.html !== '-');
    let record: AgentRunRecord;
    const outputs: [string, string][] = [];
    try {
      progress.update(`export ${runId}: loading the run`);
      const { chain, ...plain } = await loadChainedRecord(context, runId);
      record = plain;
      if (options.json !== undefined) {
        progress.update(
          `export ${runId}: serializing ${record.messages.length} message(s), ${record.toolCalls.length} call(s)`,
        );
        outputs.push([options.json, `${terminalSafeJson(record, 2)}\n`]);
      }
      if (options.html !== undefined) {
        progress.update(`export ${runId}: rendering the timeline of ${record.toolCalls.length} call(s)`);
        outputs.push([
          options.html,
          renderRunHtml(record, {
            journal: readJournal(context.cwd, options.events),
            chain,
            tree: (await loadRunTree(context.store, runId)) ?? { record, children: [] },
          }),
        ]);
      }
    } finally {
      progress.clear();
    }
    // Confirmations go to stderr when stdout carries a document.
    const note = outputs.some(([target]) => target === '-') ? io.stderr : io.stdout;
    for (const [target, text] of outputs) {
      if (target === '-') {
        io.stdout(text);
        continue;
      }
      const file = resolve(context.cwd, target);
      try {
        writeFileSync(file, text);
      } catch (error) {
        throw new CliError('failed', `cannot write ${file}: ${(error as Error).message}`, { cause: error });
      }
      note(`${oneLine`wrote run ${runId} (${record.status}) to ${file}: ${Buffer.byteLength(text)} bytes`}\n`);
    }
    return 0;
  });
}

/** The journal file's entries; a missing file is `not_found`, a malformed one `usage`. */
function readJournal(cwd: string, path: string | undefined): JournalEntry[] | undefined {
  if (path === undefined) return undefined;
  const file = resolve(cwd, path);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError('not_found', `cannot read the event journal ${file}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  try {
    return RunEventJournal.parse(text);
  } catch (error) {
    if (RunEventJournalError.isInstance(error))
      throw new CliError('usage', `${file}: ${error.message}`, { cause: error });
    throw error;
  }
}
