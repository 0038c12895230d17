import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { PostgresRunStore, RunStore, SqliteRunStore } from '../durable';
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
 * Opens the store a command works on. A SQLite file must exist already: the command line never
 * creates an empty store by mistake (`not_found`).
 */
export async function openStore(spec: string, cwd: string): Promise<RunStore> {
  const parsed = parseStoreSpec(spec, cwd);
  if (parsed.kind === 'sqlite') {
    if (!existsSync(parsed.path)) throw new CliError('not_found', `no run store at ${parsed.path}`);
    return SqliteRunStore.open({ path: parsed.path });
  }
  return PostgresRunStore.open({ connectionString: parsed.connectionString, maxConnections: 2, ...(parsed.schema === undefined ? {} : { schema: parsed.schema }) });
}
