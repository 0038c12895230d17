import { randomBytes } from 'node:crypto';
import { Pool } from 'pg';

/** The test server, from `WUWE_TEST_POSTGRES_URL` (`.ci/postgres.sh` starts one and sets it). */
export const postgresUrl = process.env.WUWE_TEST_POSTGRES_URL;

/**
 * `describe`: PostgreSQL suites always run. Jest's global setup starts a throwaway server when
 * `WUWE_TEST_POSTGRES_URL` is unset, or fails the run saying how to get one; never a skip.
 */
export const describePostgres: jest.Describe = describe;

/** The URL, or an error saying how to get a server. */
export function requirePostgresUrl(): string {
  if (!postgresUrl)
    throw new Error(
      'WUWE_TEST_POSTGRES_URL is not set; CI requires a PostgreSQL server (run the tests through .ci/postgres.sh)',
    );
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
