import { AGENT_RUN_RECORD_SCHEMA_VERSION } from './agent-run-record';
import { RunStoreError } from './run-store-error';

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
