import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

jest.setTimeout(60_000);

const root = join(__dirname, '..', '..');

/**
 * Runs `body` (CommonJS) in a fresh Node process with ts-node, from the repository root; returns its stdout as JSON.
 */
function inChild(body: string): unknown {
  const result = spawnSync(process.execPath, ['-r', 'ts-node/register/transpile-only', '-e', body], {
    cwd: root,
    env: { ...process.env, TS_NODE_TRANSPILE_ONLY: '1' },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`child failed (${result.status}): ${result.stderr}`);
  return JSON.parse(result.stdout);
}

/** A prelude that makes `require(name)` fail as if the package were not installed. */
const hide = (names: string[]): string => `
  const Module = require('node:module');
  const hidden = new Set(${JSON.stringify(names)});
  const resolve = Module._resolveFilename;
  Module._resolveFilename = function (request, ...rest) {
    if (hidden.has(request)) { const error = new Error("Cannot find module '" + request + "'"); error.code = 'MODULE_NOT_FOUND'; throw error; }
    return resolve.call(this, request, ...rest);
  };`;

describe('database drivers', () => {
  it('are not loaded by requiring the store entries, which export both stores', () => {
    const loaded = inChild(`
      const { SqliteRunStore } = require('./lib/durable/sqlite');
      const { PostgresRunStore } = require('./lib/durable/postgres');
      const drivers = Object.keys(require.cache).filter((path) => /node_modules[\\\\/](better-sqlite3|pg)[\\\\/]/.test(path));
      console.log(JSON.stringify({ drivers, stores: [typeof SqliteRunStore, typeof PostgresRunStore] }));
    `);
    expect(loaded).toEqual({ drivers: [], stores: ['function', 'function'] });
  });

  it('are loaded on first use, and a missing one is a MissingDependencyError naming the package', () => {
    const outcome = inChild(`
      ${hide(['better-sqlite3', 'pg'])}
      const { SqliteRunStore } = require('./lib/durable/sqlite'); const { PostgresRunStore } = require('./lib/durable/postgres'); const { MissingDependencyError } = require('./lib');
      const describe = (error) => ({ missing: MissingDependencyError.isInstance(error), code: error.code, packageName: error.packageName, message: error.message });
      let sqlite;
      try { new SqliteRunStore(':memory:'); } catch (error) { sqlite = describe(error); }
      PostgresRunStore.open({ connectionString: 'postgres://127.0.0.1:1/x' }).then(
        () => console.log(JSON.stringify({ sqlite, postgres: 'opened' })),
        (error) => console.log(JSON.stringify({ sqlite, postgres: describe(error) })),
      );
    `) as Record<string, Record<string, unknown>>;
    expect(outcome.sqlite).toMatchObject({
      missing: true,
      code: 'missing_dependency',
      packageName: 'better-sqlite3',
      message: expect.stringContaining('npm install better-sqlite3'),
    });
    expect(outcome.postgres).toMatchObject({
      missing: true,
      code: 'missing_dependency',
      packageName: 'pg',
      message: expect.stringContaining('npm install pg'),
    });
  });
});
