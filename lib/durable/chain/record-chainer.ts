import type { AgentRunRecord } from '../agent-run-record';
import { ChainDraft, chainEntries, RecordKeyRing, recordKeyRing } from './chain-digest';
import type { ChainedRunRecord, RecordChainEntry, RecordChainOptions, RecordHead } from './record-chain';
import { assertRunRecordVerified } from './verify-run-record';
import { approvalLineageProblem } from './approval-lineage';
import { RunStoreError } from '../run-store-error';

/** What each store does with its chain, the same way: sign new entries, verify loaded records, report heads. */
export class RecordChainer {
  /** The key ring the store signs and verifies with. */
  readonly ring: RecordKeyRing;
  private readonly onRecordHead?: RecordChainOptions['onRecordHead'];

  constructor(options: RecordChainOptions) {
    this.ring = recordKeyRing(options.recordKey);
    this.onRecordHead = options.onRecordHead;
  }

  /** The entries chaining `drafts` after the run's current head and length. */
  entries(
    runId: string,
    previous: { readonly head?: string | null; readonly length: number | string },
    drafts: readonly ChainDraft[],
    source: RecordChainEntry['source'] = 'write',
  ): RecordChainEntry[] {
    return chainEntries(
      runId,
      { head: previous.head ?? undefined, length: Number(previous.length) },
      drafts,
      this.ring,
      source,
    );
  }

  /** The record without its chain, once the chain verified; throws `record_tampered` naming the first bad entry. */
  verified(record: ChainedRunRecord): AgentRunRecord {
    for (const approval of record.approvals) {
      const problem = approvalLineageProblem(approval);
      if (problem)
        throw new RunStoreError('record_invalid', `A stored approval is invalid: ${problem}; it is not a decision`, {
          runId: record.runId,
          callId: approval.callId,
          turn: approval.turn,
        });
    }
    assertRunRecordVerified(record, this.ring);
    const { chain: _chain, ...plain } = record;
    return plain;
  }

  /** Tells the host of a run's new head after its write committed; the hook's errors are ignored. */
  async notify(runId: string, entries: readonly RecordChainEntry[]): Promise<void> {
    const last = entries[entries.length - 1];
    if (this.onRecordHead === undefined || last === undefined) return;
    const head: RecordHead = { runId, index: last.index, digest: last.digest };
    try {
      await this.onRecordHead(head);
    } catch {
      // The write committed; anchoring is the host's concern.
    }
  }
}
