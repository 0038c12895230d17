import { RunStoreError } from '../run-store-error';
import { RunRows, recordFromRows } from '../stored-rows';
import { recordDrafts } from './chain-entities';
import type { RecordChainEntry } from './record-chain';
import type { RecordChainer } from './record-chainer';

/**
 * The chain a migration gives an existing run: one entry for each part of the record as it is found, in
 * record order, each with source `migration` (they attest the record from the migration on, not how it was
 * written). An approval decided before decisions were bound to their arguments keeps its state; one without a
 * decision stays invalid on read. Returns no entries for a run whose rows do not assemble into a record
 * (it then fails to load, as it did before).
 */
export function migrationEntries(chainer: RecordChainer, rows: RunRows): RecordChainEntry[] {
  let record;
  try {
    record = recordFromRows(rows, true);
  } catch (error) {
    if (RunStoreError.isInstance(error)) return [];
    throw error;
  }
  return chainer.entries(record.runId, { length: 0 }, recordDrafts(record), 'migration');
}
