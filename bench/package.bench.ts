/**
 * What a project pays to depend on wuwe, beside the AI SDK (`ai`):
 *
 * - load time of `require('wuwe')` (the built core, `dist/`) and of `require('ai')` in a fresh Node
 *   process, median of several runs, with the number of modules each loads;
 * - install size: the package plus its production dependency closure (non-optional peers included),
 *   as installed in this repository's node_modules.
 *
 * The core must load at least as fast as `ai`. Builds `dist/` first when it is missing.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const root = resolve(__dirname, '..');
const RUNS = 9;

interface LoadFigures {
  readonly medianMs: number;
  readonly modules: number;
}

/** Loads `target` in a fresh process `RUNS` times; median milliseconds and module count. */
function loadTime(target: string): LoadFigures {
  const script = `const start = process.hrtime.bigint(); require(${JSON.stringify(target)});
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    process.stdout.write(JSON.stringify({ ms, modules: Object.keys(require.cache).length }));`;
  const samples: { ms: number; modules: number }[] = [];
  for (let run = 0; run < RUNS; run++) {
    samples.push(
      JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: root, encoding: 'utf8' })) as {
        ms: number;
        modules: number;
      },
    );
  }
  const sorted = samples.map((sample) => sample.ms).sort((a, b) => a - b);
  return { medianMs: sorted[Math.floor(sorted.length / 2)], modules: samples[0].modules };
}

/** Bytes of files under `path` (symbolic links not followed). */
function directoryBytes(path: string): number {
  const stat = lstatSync(path);
  if (!stat.isDirectory()) return stat.isFile() ? stat.size : 0;
  let total = 0;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules') continue;
    total += directoryBytes(join(path, entry));
  }
  return total;
}

/** Where `name` resolves from `fromDirectory`, walking up node_modules as Node does. */
function packageDirectory(name: string, fromDirectory: string): string | undefined {
  for (let directory = fromDirectory; ; directory = dirname(directory)) {
    const candidate = join(directory, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(directory) === directory) return undefined;
  }
}

/** Bytes and package count of a package and its production closure; `own` replaces the package's own bytes. */
function installSize(
  directory: string,
  own?: { dependencies: Record<string, string>; bytes: number },
): { bytes: number; packages: number } {
  const seen = new Set<string>();
  let bytes = 0;
  const visit = (
    packageDir: string,
    manifestOverride?: { dependencies: Record<string, string>; bytes: number },
  ): void => {
    if (seen.has(packageDir)) return;
    seen.add(packageDir);
    const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
      peerDependenciesMeta?: Record<string, { optional?: boolean }>;
    };
    bytes += manifestOverride?.bytes ?? directoryBytes(packageDir);
    const peers = Object.keys(manifest.peerDependencies ?? {}).filter(
      (name) => manifest.peerDependenciesMeta?.[name]?.optional !== true,
    );
    const names = [...Object.keys(manifestOverride?.dependencies ?? manifest.dependencies ?? {}), ...peers];
    for (const name of names) {
      const dependency = packageDirectory(name, packageDir);
      if (dependency !== undefined) visit(dependency);
    }
  };
  visit(directory, own);
  return { bytes, packages: seen.size };
}

export default function packageBench(): Promise<void> {
  if (!existsSync(join(root, 'dist', 'index.js')))
    execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  const aiDirectory = packageDirectory('ai', root);
  if (aiDirectory === undefined) throw new Error('the `ai` devDependency is not installed: run npm install');
  const ai = loadTime('ai');
  const core = loadTime(root);
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  const published = ['dist', 'package.json', 'README.md', 'CHANGELOG.md', 'LICENSE'].filter((name) =>
    existsSync(join(root, name)),
  );
  const ownBytes = published.reduce((total, name) => total + directoryBytes(join(root, name)), 0);
  const coreSize = installSize(root, { dependencies: manifest.dependencies, bytes: ownBytes });
  const aiSize = installSize(aiDirectory);
  const version = (JSON.parse(readFileSync(join(aiDirectory, 'package.json'), 'utf8')) as { version: string }).version;
  console.table([
    {
      package: `ai@${version}`,
      'load ms': ai.medianMs.toFixed(1),
      ratio: '1.00x',
      modules: ai.modules,
      'install MB': (aiSize.bytes / 1e6).toFixed(1),
      packages: aiSize.packages,
    },
    {
      package: 'wuwe (core)',
      'load ms': core.medianMs.toFixed(1),
      ratio: `${(core.medianMs / ai.medianMs).toFixed(2)}x`,
      modules: core.modules,
      'install MB': (coreSize.bytes / 1e6).toFixed(1),
      packages: coreSize.packages,
    },
  ]);
  return Promise.resolve();
}
