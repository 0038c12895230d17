import { randomBytes } from 'node:crypto';
import { Pool } from 'pg';

/** The test server, from `WUWE_TEST_POSTGRES_URL` (`.ci/postgres.sh` starts one and sets it). */
export const postgresUrl = process.env.WUWE_TEST_POSTGRES_URL;

/**
 * `describe` when a server is configured or when running in CI (where a missing server must fail the
 * suite, not skip it); `describe.skip` only on a developer machine without a server.
 */
export const describePostgres: jest.Describe = postgresUrl || process.env.CI ? describe : describe.skip;

/** The URL, or an error saying how to get a server. */
export function requirePostgresUrl(): string {
  if (!postgresUrl) throw new Error('WUWE_TEST_POSTGRES_URL is not set; CI requires a PostgreSQL server (run the tests through .ci/postgres.sh)');
  return postgresUrl;
}

/** Hands out fresh schema names so tests never share tables, and drops them afterwards. */
export class TestSchemas {
  private readonly names: string[] = [];

  /** A new, unused schema name. */
  fresh(): string {
    const name = `wuwe_t_${randomBytes(6).toString('hex')}`;
    this.names.push(name);
    return name;
  }

  /** Drops every schema handed out. */
  async dropAll(): Promise<void> {
    if (!postgresUrl || this.names.length === 0) return;
    const pool = new Pool({ connectionString: postgresUrl, max: 1 });
    try {
      for (const name of this.names.splice(0)) await pool.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
    } finally {
      await pool.end();
    }
  }
}
