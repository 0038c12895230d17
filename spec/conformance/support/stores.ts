import { join } from 'node:path';
import { MemoryRunStore } from '../../../lib';
import type { RunStore } from '../../../lib';
import { PostgresRunStore } from '../../../lib/durable/postgres';
import { SqliteRunStore } from '../../../lib/durable/sqlite';
import { requirePostgresUrl, TestSchemas } from '../../durable/postgres-env';
import { makeTempDir } from '../../durable/temp-dir';

/** The stores every durable scenario runs on. */
export type StoreKind = 'memory' | 'sqlite' | 'postgres';

/** Every store kind, in the order the matrix lists them. */
export const STORE_KINDS: readonly StoreKind[] = ['memory', 'sqlite', 'postgres'];

/** The stores that outlive their process (a crash scenario needs one of them). */
export const DURABLE_STORE_KINDS: readonly StoreKind[] = ['sqlite', 'postgres'];

/** A store of one kind for one scenario, and how to open it again as another process would. */
export interface ScenarioStore {
  readonly kind: StoreKind;
  readonly store: RunStore;
  /** What a child process passes to open the same store (`memory` has none). */
  readonly address: string;
  /**
   * A new handle on the same data (a new SQLite connection, a new PostgreSQL pool), as a process restarted
   * after saving its run would open; the memory store is its own instance. Closed with the scenario.
   */
  reopen(): Promise<RunStore>;
}

/**
 * For a spec file: `open(kind)` gives a fresh store of that kind (a SQLite file in a temporary directory, a
 * fresh PostgreSQL schema of the test server); every store is closed and every directory and schema removed
 * after the file's tests.
 */
export function useScenarioStores(prefix: string): (kind: StoreKind) => Promise<ScenarioStore> {
  const temp = makeTempDir(`conformance-${prefix}`);
  const schemas = new TestSchemas();
  const opened: RunStore[] = [];
  let count = 0;
  afterAll(async () => {
    await Promise.all(opened.map((store) => store.close().catch(() => undefined)));
    await schemas.dropAll();
    temp.cleanup();
  });
  const track = <T extends RunStore>(store: T): T => {
    opened.push(store);
    return store;
  };
  return async (kind) => {
    count++;
    if (kind === 'memory') {
      const store = track(new MemoryRunStore());
      return { kind, store, address: '', reopen: async () => store };
    }
    if (kind === 'sqlite') {
      const path = join(temp.path, `runs-${count}.db`);
      return {
        kind,
        store: track(new SqliteRunStore(path)),
        address: path,
        reopen: async () => track(new SqliteRunStore(path)),
      };
    }
    const url = requirePostgresUrl();
    const schema = schemas.fresh();
    const open = async () => track(await PostgresRunStore.open({ connectionString: url, schema }));
    return { kind, store: await open(), address: `${url}#${schema}`, reopen: open };
  };
}
