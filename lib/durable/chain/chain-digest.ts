import { createHmac, hash } from 'node:crypto';
import { loadCanonicalize } from '../load-canonicalize';
import { RunStoreError } from '../run-store-error';
import type { RecordChainEntry, RecordEntryKind, RecordKey, RecordKeyOption } from './record-chain';

/** Tag of the chain's canonical form; a change of form changes the tag. */
const CHAIN_FORM = 'wuwe-record-chain/1';

/** An entry before it is chained: what it wrote and the hash of that. */
export interface ChainDraft {
  readonly kind: RecordEntryKind;
  readonly subject: string;
  readonly entitySha256: string;
}

/** A normalized key ring: the signing key first, every key by id. */
export interface RecordKeyRing {
  readonly signing?: RecordKey;
  readonly byId: ReadonlyMap<string, RecordKey>;
}

/**
 * The key ring of a store or verify option: a key `{ id, key }` (`key` a string or a Uint8Array of at least 16
 * bytes) or a list of them. Throws `record_invalid` for anything else (a key that is not an object, an empty id, a
 * missing or mistyped `key`, a short key, a repeated id); the message never quotes a secret.
 */
export function recordKeyRing(option: RecordKeyOption | undefined): RecordKeyRing {
  const keys =
    option === undefined ? [] : Array.isArray(option) ? (option as readonly RecordKey[]) : [option as RecordKey];
  const byId = new Map<string, RecordKey>();
  for (const key of keys) {
    if (typeof key !== 'object' || key === null || Array.isArray(key))
      throw new RunStoreError('record_invalid', 'A record key must be an object { id, key }');
    if (typeof key.id !== 'string' || key.id === '')
      throw new RunStoreError('record_invalid', 'A record key needs a non-empty id');
    if (typeof key.key !== 'string' && !isUint8Array(key.key))
      throw new RunStoreError(
        'record_invalid',
        `Record key '${key.id}' needs \`key\`: a string or a Uint8Array of at least 16 bytes`,
      );
    if (keyBytes(key).length < 16)
      throw new RunStoreError('record_invalid', `Record key '${key.id}' is shorter than 16 bytes`);
    if (byId.has(key.id)) throw new RunStoreError('record_invalid', `Record key id '${key.id}' appears twice`);
    byId.set(key.id, key);
  }
  return { signing: keys[0], byId };
}

/**
 * The digest of an entry: SHA-256, or HMAC-SHA-256 under `key`, of the RFC 8785 canonical JSON of the entry's
 * fields (chain form tag, run id, index, kind, subject, entity hash, source, key id) and the previous digest.
 */
export function entryDigest(
  runId: string,
  entry: Omit<RecordChainEntry, 'digest'>,
  previous: string | undefined,
  key: RecordKey | undefined,
): string {
  const text = entryText(runId, entry, previous);
  return key === undefined
    ? hash('sha256', text, 'hex')
    : createHmac('sha256', keyBytes(key)).update(text, 'utf8').digest('hex');
}

/**
 * The RFC 8785 canonical JSON of an entry's digested fields. An entry as the stores write it (string fields, an
 * integer index) is written out directly, its keys in the canonical order (sorted by UTF-16 code units) and each
 * string by `JSON.stringify`, which is RFC 8785's string form; this is the same text `canonicalize` gives for it, at
 * a fraction of the cost, and verifying a record digests every entry (`npm run bench -- durable`). Any other entry
 * (one edited by hand to hold another type) goes through `canonicalize`.
 */
export function entryText(
  runId: string,
  entry: Omit<RecordChainEntry, 'digest'>,
  previous: string | undefined,
): string {
  const { index, kind, subject, entitySha256, source } = entry;
  const keyId = entry.keyId ?? null;
  const prior = previous ?? null;
  const plain =
    typeof runId === 'string' &&
    Number.isSafeInteger(index) &&
    typeof kind === 'string' &&
    typeof subject === 'string' &&
    typeof entitySha256 === 'string' &&
    typeof source === 'string' &&
    (keyId === null || typeof keyId === 'string') &&
    (prior === null || typeof prior === 'string');
  if (!plain)
    return loadCanonicalize()({
      form: CHAIN_FORM,
      runId,
      index,
      previous: prior,
      kind,
      subject,
      entitySha256,
      source,
      keyId,
    })!;
  return (
    `{"entitySha256":${JSON.stringify(entitySha256)},"form":${JSON.stringify(CHAIN_FORM)},"index":${index},` +
    `"keyId":${JSON.stringify(keyId)},"kind":${JSON.stringify(kind)},"previous":${JSON.stringify(prior)},` +
    `"runId":${JSON.stringify(runId)},"source":${JSON.stringify(source)},"subject":${JSON.stringify(subject)}}`
  );
}

/** Chains `drafts` after the entry `previous` (the run's head and length), signed with the ring's signing key. */
export function chainEntries(
  runId: string,
  previous: { readonly head?: string; readonly length: number },
  drafts: readonly ChainDraft[],
  ring: RecordKeyRing,
  source: RecordChainEntry['source'] = 'write',
): RecordChainEntry[] {
  const entries: RecordChainEntry[] = [];
  let head = previous.head;
  drafts.forEach((draft, offset) => {
    const unsigned = {
      index: previous.length + offset,
      kind: draft.kind,
      subject: draft.subject,
      entitySha256: draft.entitySha256,
      source,
      ...(ring.signing ? { keyId: ring.signing.id } : {}),
    };
    head = entryDigest(runId, unsigned, head, ring.signing);
    entries.push({ ...unsigned, digest: head });
  });
  return entries;
}

/** True for a Uint8Array (a Buffer included), of this realm or another. */
function isUint8Array(value: unknown): value is Uint8Array {
  return value instanceof Uint8Array || Object.prototype.toString.call(value) === '[object Uint8Array]';
}

function keyBytes(key: RecordKey): Buffer {
  return typeof key.key === 'string' ? Buffer.from(key.key, 'utf8') : Buffer.from(key.key);
}
