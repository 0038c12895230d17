import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The repository root. */
export const root = resolve(__dirname, '../..');
/** The TypeScript compiler of the repository, run by path (consumers bring their own). */
export const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

/** A packed tarball installed into a fresh consumer project. */
export interface PackedConsumer {
  /** Temporary directory holding the tarball and the consumer; removed by `dispose`. */
  readonly work: string;
  /** The `npm pack` tarball (built by the `prepare` script). */
  readonly tarball: string;
  /** The consumer project: `wuwe` and `reflect-metadata` installed from the tarball, no optional back-end. */
  readonly consumer: string;
  dispose(): void;
}

/** Runs a command, returning its output; on failure the error carries stdout and stderr. */
export function run(
  command: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): string {
  try {
    return execFileSync(command, args, { cwd, env, encoding: 'utf8', stdio: 'pipe', maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(
      `${command} ${args.join(' ')} failed in ${cwd}:\n${failed.stdout ?? ''}\n${failed.stderr ?? ''}\n${failed.message}`,
      { cause: error },
    );
  }
}

/**
 * Packs the repository as `npm publish` would (`npm pack` runs `prepare`, which builds `dist/`), and
 * installs the tarball into a new consumer project from the local npm cache where it can.
 */
export function packAndInstall(work = mkdtempSync(join(tmpdir(), 'wuwe-packed-'))): PackedConsumer {
  run('npm', ['pack', '--silent', '--pack-destination', work], root);
  const tarball = join(work, readdirSync(work).find((name) => name.endsWith('.tgz')) ?? 'missing.tgz');
  const consumer = join(work, 'consumer');
  mkdirSync(consumer);
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }));
  run(
    'npm',
    [
      'install',
      '--omit=dev',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      tarball,
      'reflect-metadata',
    ],
    consumer,
  );
  // A consumer on Node brings @types/node; take the repository's rather than fetching it.
  mkdirSync(join(consumer, 'node_modules', '@types'), { recursive: true });
  symlinkSync(join(root, 'node_modules', '@types', 'node'), join(consumer, 'node_modules', '@types', 'node'), 'dir');
  return { work, tarball, consumer, dispose: () => rmSync(work, { recursive: true, force: true }) };
}

const WAIT_STEP_MS = 250;

/**
 * The packed tarball and its consumer project, made once per jest run and shared by the spec files
 * that need it (they run in parallel workers): the first to ask packs and installs, under a lock
 * directory in `WUWE_TEST_RUN_DIR` (made by the global setup, removed by the global teardown); the
 * others wait for it. Without that directory (a spec run outside the configured jest), packs its own.
 * `dispose` of a shared one does nothing.
 */
export async function sharedPackedConsumer(timeoutMs = 480_000): Promise<PackedConsumer> {
  const shared = process.env.WUWE_TEST_RUN_DIR;
  if (shared === undefined || !existsSync(shared)) return packAndInstall();
  const work = join(shared, 'packed');
  const ready = join(shared, 'packed.json');
  const failed = join(shared, 'packed.failed');
  let owner = true;
  try {
    mkdirSync(work);
  } catch {
    owner = false;
  }
  if (owner) {
    try {
      const packed = packAndInstall(work);
      writeFileSync(ready, JSON.stringify({ tarball: packed.tarball, consumer: packed.consumer }));
    } catch (error) {
      writeFileSync(failed, String((error as Error).stack ?? error));
      throw error;
    }
  }
  for (const deadline = Date.now() + timeoutMs; !existsSync(ready);) {
    if (existsSync(failed)) throw new Error(`packing failed in another spec file:\n${readFileSync(failed, 'utf8')}`);
    if (Date.now() > deadline) throw new Error(`the packed tarball was not ready after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
  }
  const { tarball, consumer } = JSON.parse(readFileSync(ready, 'utf8')) as { tarball: string; consumer: string };
  return { work, tarball, consumer, dispose: () => undefined };
}

/** The names of every package installed under `project/node_modules`, nested ones included (`name@version`). */
export function installedPackages(project: string): string[] {
  const found: string[] = [];
  const visit = (modules: string): void => {
    if (!existsSync(modules)) return;
    for (const entry of readdirSync(modules)) {
      if (entry.startsWith('.')) continue;
      const directories = entry.startsWith('@')
        ? readdirSync(join(modules, entry)).map((name) => join(entry, name))
        : [entry];
      for (const directory of directories) {
        const manifest = join(modules, directory, 'package.json');
        if (!existsSync(manifest)) continue;
        const { name, version } = JSON.parse(readFileSync(manifest, 'utf8')) as { name: string; version: string };
        found.push(`${name}@${version}`);
        visit(join(modules, directory, 'node_modules'));
      }
    }
  };
  visit(join(project, 'node_modules'));
  return found.sort();
}
