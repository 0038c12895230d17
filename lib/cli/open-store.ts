import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { PostgresRunStore } from '../durable/postgres/postgres-run-store';
import type { RecordKey } from '../durable/chain/record-chain';
import { RunStore } from '../durable/run-store';
import { RunStoreError } from '../durable/run-store-error';
import { SqliteRunStore } from '../durable/sqlite/sqlite-run-store';
import { CliError } from './cli-error';

/** The store used when neither `--store` nor `WUWE_STORE` names one: the demo's file. */
export const DEFAULT_STORE_SPEC = 'sqlite:.wuwe/runs.db';

/** A parsed `--store` value. */
export type StoreSpec =
  | { readonly kind: 'sqlite'; readonly path: string }
  | { readonly kind: 'postgres'; readonly connectionString: string; readonly schema?: string };

/**
 * Parses `sqlite:<path>` (relative to `cwd`) or `postgres://...` / `postgresql://...`; a `schema` query
 * parameter of the URL names the PostgreSQL schema of the `wuwe_*` tables (default `public`) and is not
 * passed to the driver. Throws a `usage` {@link CliError} for anything else.
 */
export function parseStoreSpec(spec: string, cwd: string): StoreSpec {
  if (spec.startsWith('sqlite:')) {
    const path = spec.slice('sqlite:'.length);
    if (path === '') throw new CliError('usage', `--store sqlite: needs a file path, as in sqlite:.wuwe/runs.db`);
    return { kind: 'sqlite', path: resolve(cwd, path) };
  }
  if (/^postgres(ql)?:\/\//.test(spec)) {
    let url: URL;
    try {
      url = new URL(spec);
    } catch {
      throw new CliError('usage', '--store postgres://... is not a valid URL');
    }
    const schema = url.searchParams.get('schema') ?? undefined;
    url.searchParams.delete('schema');
    return { kind: 'postgres', connectionString: url.toString(), ...(schema === undefined ? {} : { schema }) };
  }
  throw new CliError('usage', `--store must be sqlite:<path> or postgres://..., not '${spec}'`);
}

/**
 * How a command uses its store: `read` opens it read-only (nothing created, migrated or written: a
 * truncated or foreign file is refused, not made into an empty store); `write` may migrate an older store
 * and write runs, but never creates a store either.
 */
export type StoreAccess = 'read' | 'write';

/**
 * Opens the store a command works on. It must exist already and be a wuwe run store: a missing SQLite file is
 * `not_found` ({@link CliError}); a 0-byte file or a schema without the tables `store_empty`, a foreign or
 * damaged one `store_foreign` / `store_corrupt` ({@link RunStoreError}, its message naming the file). With
 * `recordKey`, the store verifies keyed chains with the ring and signs new entries with its first key.
 */
export async function openStore(
  spec: string,
  cwd: string,
  access: StoreAccess = 'read',
  recordKey?: readonly RecordKey[],
): Promise<RunStore> {
  const parsed = parseStoreSpec(spec, cwd);
  const mode = { readOnly: access === 'read', create: false, ...(recordKey === undefined ? {} : { recordKey }) };
  if (parsed.kind === 'sqlite') {
    if (!existsSync(parsed.path)) throw new CliError('not_found', `no run store at ${parsed.path}`);
    return SqliteRunStore.open({ path: parsed.path, ...mode }).catch((error: unknown) => {
      throw naming(parsed.path, error);
    });
  }
  const schema = parsed.schema ?? 'public';
  return PostgresRunStore.open({ connectionString: parsed.connectionString, maxConnections: 2, schema, ...mode }).catch(
    (error: unknown) => {
      throw naming(`PostgreSQL schema ${schema}`, error);
    },
  );
}

/** A store error of the open, its message starting with the store it is about. */
function naming(store: string, error: unknown): unknown {
  if (!RunStoreError.isInstance(error)) return error;
  return new RunStoreError(error.code, `${store}: ${error.message}`, { cause: error });
}
