import type { RecordEntryKind } from './record-chain';

/** Every {@link RecordEntryKind}. */
const ENTRY_KINDS: ReadonlySet<string> = new Set<RecordEntryKind>([
  'run_created',
  'status_changed',
  'message_appended',
  'messages_replaced',
  'call_started',
  'call_attempted',
  'call_admitted',
  'projection_audited',
  'approval_requested',
  'approval_decided',
  'approval_cancelled',
]);

/** True when `kind` is a {@link RecordEntryKind}. */
export function isEntryKind(kind: unknown): kind is RecordEntryKind {
  return typeof kind === 'string' && ENTRY_KINDS.has(kind);
}

/**
 * Why a chain entry does not have an entry's shape, or `undefined`: an object whose `index` is a non-negative integer,
 * `kind` a {@link RecordEntryKind}, `subject`, `entitySha256` and `digest` strings, `source` `write` or `migration`,
 * and `keyId` a string when present. Whether the index is the entry's position is the verifier's to say.
 */
export function entryShapeProblem(entry: unknown): string | undefined {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return 'it is not an object';
  const { index, kind, subject, entitySha256, source, keyId, digest } = entry as Record<string, unknown>;
  if (!Number.isSafeInteger(index) || (index as number) < 0) return 'its index is not a non-negative integer';
  if (!isEntryKind(kind)) return 'its kind is not an entry kind';
  if (typeof subject !== 'string' || typeof entitySha256 !== 'string' || typeof digest !== 'string')
    return 'its subject, entitySha256 and digest must be strings';
  if (source !== 'write' && source !== 'migration') return 'its source is neither write nor migration';
  if (keyId !== undefined && typeof keyId !== 'string') return 'its keyId must be a string when present';
  return undefined;
}

/** The first malformed entry of a chain and why; the chain's problem (at position 0) when it is not a chain. */
export function chainShapeProblem(chain: unknown): { readonly position: number; readonly reason: string } | undefined {
  if (typeof chain !== 'object' || chain === null || !Array.isArray((chain as { entries?: unknown }).entries))
    return { position: 0, reason: 'the record has no chain (an object with an entries list)' };
  const { entries, head } = chain as { entries: readonly unknown[]; head?: unknown };
  for (let position = 0; position < entries.length; position++) {
    const problem = entryShapeProblem(entries[position]);
    if (problem !== undefined)
      return { position, reason: `the entry at position ${position} is malformed: ${problem}` };
  }
  if (head !== undefined && typeof head !== 'string')
    return { position: Math.max(0, entries.length - 1), reason: "the chain's head is not a digest (a string)" };
  return undefined;
}
