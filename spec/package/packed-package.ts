import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
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
export function run(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  try {
    return execFileSync(command, args, { cwd, env, encoding: 'utf8', stdio: 'pipe', maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${failed.stdout ?? ''}\n${failed.stderr ?? ''}\n${failed.message}`, { cause: error });
  }
}

/**
 * Packs the repository as `npm publish` would (`npm pack` runs `prepare`, which builds `dist/`), and
 * installs the tarball into a new consumer project from the local npm cache where it can.
 */
export function packAndInstall(): PackedConsumer {
  const work = mkdtempSync(join(tmpdir(), 'wuwe-packed-'));
  run('npm', ['pack', '--silent', '--pack-destination', work], root);
  const tarball = join(work, readdirSync(work).find((name) => name.endsWith('.tgz')) ?? 'missing.tgz');
  const consumer = join(work, 'consumer');
  mkdirSync(consumer);
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }));
  run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball, 'reflect-metadata'], consumer);
  // A consumer on Node brings @types/node; take the repository's rather than fetching it.
  mkdirSync(join(consumer, 'node_modules', '@types'), { recursive: true });
  symlinkSync(join(root, 'node_modules', '@types', 'node'), join(consumer, 'node_modules', '@types', 'node'), 'dir');
  return { work, tarball, consumer, dispose: () => rmSync(work, { recursive: true, force: true }) };
}
