import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

/** A PostgreSQL server started for one test run. */
export interface ThrowawayPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/wuwe_test`. */
  readonly url: string;
  /** Temporary directory holding data, socket and log. */
  readonly directory: string;
  /** Directory of the server binaries used. */
  readonly binDirectory: string;
}

/** What to run when no server can be started here. */
export const POSTGRES_HINT =
  'PostgreSQL tests need a server: set WUWE_TEST_POSTGRES_URL, install the server binaries (apt-get install postgresql), or run `.ci/postgres.sh npm test`';

/**
 * The directory of PostgreSQL's server binaries (`initdb`, `pg_ctl`): `WUWE_PG_BIN`, else `pg_config --bindir`,
 * else the newest `/usr/lib/postgresql/<version>/bin` (Debian). Undefined when none has `initdb`.
 */
export function findPostgresBinaries(): string | undefined {
  const candidates: string[] = [];
  if (process.env.WUWE_PG_BIN) candidates.push(process.env.WUWE_PG_BIN);
  try {
    candidates.push(
      execFileSync('pg_config', ['--bindir'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim(),
    );
  } catch {
    // no pg_config on the PATH
  }
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((name) => /^\d+(\.\d+)?$/.test(name))
      .sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((version) => join(debian, version, 'bin')));
  }
  return candidates.find((directory) => existsSync(join(directory, 'initdb')) && existsSync(join(directory, 'pg_ctl')));
}

/** A free TCP port on the loopback interface. */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** Runs a server binary as the data directory's owner: `postgres` when we are root, ourselves otherwise. */
function runAsOwner(binary: string, args: readonly string[]): void {
  const asRoot = userInfo().uid === 0;
  const command = asRoot ? 'runuser' : binary;
  const fullArgs = asRoot ? ['-u', 'postgres', '--', binary, ...args] : [...args];
  const result = spawnSync(command, fullArgs, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.status !== 0) {
    throw new Error(
      `${binary} ${args.join(' ')} failed (${result.status ?? result.signal}): ${result.stderr || result.stdout || String(result.error)}`,
    );
  }
}

/** Starts a fresh server (trust authentication, 127.0.0.1 only) in a temporary directory, and creates `wuwe_test`. */
export async function startThrowawayPostgres(binDirectory: string): Promise<ThrowawayPostgres> {
  const directory = mkdtempSync(join(tmpdir(), 'wuwe-pg-'));
  if (userInfo().uid === 0)
    chownSync(
      directory,
      Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })),
      Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })),
    );
  const port = await freeLoopbackPort();
  const data = join(directory, 'data');
  const log = join(directory, 'server.log');
  try {
    runAsOwner(join(binDirectory, 'initdb'), [
      '-D',
      data,
      '-U',
      'postgres',
      '--auth=trust',
      '-E',
      'UTF8',
      '--no-locale',
    ]);
    runAsOwner(join(binDirectory, 'pg_ctl'), [
      '-D',
      data,
      '-l',
      log,
      '-w',
      '-t',
      '60',
      '-o',
      `-p ${port} -k ${directory} -c listen_addresses=127.0.0.1`,
      'start',
    ]);
    execFileSync(
      join(binDirectory, 'createdb'),
      ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', 'wuwe_test'],
      { stdio: 'pipe' },
    );
  } catch (error) {
    const serverLog = existsSync(log) ? readFileSync(log, 'utf8') : '';
    stopThrowawayPostgres({ url: '', directory, binDirectory });
    throw new Error(`could not start PostgreSQL from ${binDirectory}: ${(error as Error).message}\n${serverLog}`, {
      cause: error,
    });
  }
  return { url: `postgres://postgres@127.0.0.1:${port}/wuwe_test`, directory, binDirectory };
}

/** Stops the server (fast shutdown) and removes its directory. */
export function stopThrowawayPostgres(server: ThrowawayPostgres): void {
  try {
    runAsOwner(join(server.binDirectory, 'pg_ctl'), ['-D', join(server.directory, 'data'), '-m', 'fast', '-w', 'stop']);
  } catch {
    // not running
  }
  rmSync(server.directory, { recursive: true, force: true });
}
