import { AGENT_RUN_RECORD_SCHEMA_VERSION } from './agent-run-record';
import { RunStoreError } from './run-store-error';

/**
 * What a read-only open needs of the store it found: a run store (`store_empty` otherwise) of exactly this
 * build's schema version, since a read-only open cannot migrate an older one (`schema_version_mismatch`).
 */
export function checkReadableStore(
  found: { readonly kind: 'empty' } | { readonly kind: 'wuwe'; readonly version: number },
  where: string,
): void {
  if (found.kind === 'empty') throw new RunStoreError('store_empty', `${where} holds no wuwe run store`);
  if (found.version !== AGENT_RUN_RECORD_SCHEMA_VERSION)
    throw new RunStoreError(
      'schema_version_mismatch',
      `${where} has schema version ${found.version}, which a read-only open cannot migrate to version ${AGENT_RUN_RECORD_SCHEMA_VERSION}; open it once for writing`,
    );
}

/** Throws `schema_version_mismatch` unless `version` is one this build reads. */
export function checkSchemaVersion(version: unknown): void {
  const number = Number(version);
  if (!Number.isInteger(number) || number < 1 || number > AGENT_RUN_RECORD_SCHEMA_VERSION) {
    const newer = Number.isInteger(number) && number > AGENT_RUN_RECORD_SCHEMA_VERSION;
    throw new RunStoreError(
      'schema_version_mismatch',
      `The store has schema version ${String(version)}; this build reads version ${AGENT_RUN_RECORD_SCHEMA_VERSION}${newer ? ' (written by a newer wuwe)' : ''}`,
    );
  }
}
