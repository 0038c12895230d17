import { RunStoreError } from '../run-store-error';
import { parseAgentRunRecord } from '../parse-agent-run-record';
import { describe, isObject } from '../record-message-shape';
import { entryShapeProblem } from './chain-shape';
import type { ChainedRunRecord, RecordChainEntry } from './record-chain';

/** Format tag of the first line of an exported record. */
const FORMAT = 'wuwe-run-record/3';

/**
 * A chained record as JSON Lines: a header line `{ format, head }`, the record (without its chain), then one
 * line per chain entry in order. {@link parseRunRecordJsonLines} reads it back and `verifyRunRecord` checks it offline.
 */
export function runRecordToJsonLines(record: ChainedRunRecord): string {
  const { chain, ...plain } = record;
  const header = {
    format: FORMAT,
    runId: record.runId,
    entries: chain.entries.length,
    ...(chain.head === undefined ? {} : { head: chain.head }),
  };
  return (
    [JSON.stringify(header), JSON.stringify(plain), ...chain.entries.map((entry) => JSON.stringify(entry))].join('\n') +
    '\n'
  );
}

/**
 * Reads {@link runRecordToJsonLines} text back into a chained record. Throws `record_invalid`, naming what is wrong,
 * for anything else: a value that is not text, a line that is not JSON, a header of another format or whose `runId`,
 * `entries` count or `head` does not fit the record, a malformed record (see `parseAgentRunRecord`: every field of
 * another type, nesting deeper than `MAX_RECORD_DEPTH`), or a malformed chain entry (see `entryShapeProblem`). What
 * it returns has the shape `verifyRunRecord` checks; whether it matches its chain is that function's to say.
 */
export function parseRunRecordJsonLines(text: string): ChainedRunRecord {
  if (typeof text !== 'string')
    throw new RunStoreError('record_invalid', `An exported record is JSON Lines text, not ${describe(text)}`);
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  const parsed = lines.map((line, index): unknown => {
    try {
      return JSON.parse(line);
    } catch (error) {
      throw new RunStoreError('record_invalid', `Line ${index + 1} of the exported record is not JSON`, {
        cause: error,
      });
    }
  });
  const header = parsed[0];
  if (!isObject(header) || header.format !== FORMAT)
    throw new RunStoreError('record_invalid', `The export does not start with a ${FORMAT} header`);
  if (parsed.length < 2) throw new RunStoreError('record_invalid', 'The export has no record line');
  const record = parseAgentRunRecord(parsed[1]);
  const runId = record.runId;
  if (header.runId !== runId)
    throw new RunStoreError(
      'record_invalid',
      `The export's header names run ${describe(header.runId)}; its record is run ${describe(runId)}`,
      { runId },
    );
  const entries = parsed.slice(2);
  if (header.entries !== entries.length)
    throw new RunStoreError(
      'record_invalid',
      `The export's header announces ${describe(header.entries)} entries; it has ${entries.length}`,
      { runId },
    );
  if (header.head !== undefined && typeof header.head !== 'string')
    throw new RunStoreError('record_invalid', "The export's header has a head that is not a digest (a string)", {
      runId,
    });
  entries.forEach((entry, position) => {
    const problem = entryShapeProblem(entry);
    if (problem !== undefined)
      throw new RunStoreError(
        'record_invalid',
        `Line ${position + 3} of the export (chain entry ${position}) is malformed: ${problem}`,
        { runId },
      );
  });
  return {
    ...record,
    chain: {
      entries: entries as RecordChainEntry[],
      ...(typeof header.head === 'string' ? { head: header.head } : {}),
    },
  };
}
