import { RunStoreError } from '../run-store-error';
import { parseAgentRunRecord } from '../parse-agent-run-record';
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
 * Reads {@link runRecordToJsonLines} text back into a chained record; throws `record_invalid` for text of another
 * shape.
 */
export function parseRunRecordJsonLines(text: string): ChainedRunRecord {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  const parsed = lines.map((line, index) => {
    try {
      return JSON.parse(line) as Record<string, unknown>;
    } catch (error) {
      throw new RunStoreError('record_invalid', `Line ${index + 1} of the exported record is not JSON`, {
        cause: error,
      });
    }
  });
  const header = parsed[0];
  if (header?.format !== FORMAT)
    throw new RunStoreError('record_invalid', `The export does not start with a ${FORMAT} header`);
  if (parsed.length < 2) throw new RunStoreError('record_invalid', 'The export has no record line');
  const record = parseAgentRunRecord(parsed[1]);
  const entries = parsed.slice(2) as unknown as RecordChainEntry[];
  if (header.entries !== entries.length)
    throw new RunStoreError(
      'record_invalid',
      `The export's header announces ${String(header.entries)} entries; it has ${entries.length}`,
      { runId: record.runId },
    );
  return { ...record, chain: { entries, ...(typeof header.head === 'string' ? { head: header.head } : {}) } };
}
