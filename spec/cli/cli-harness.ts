import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { main } from '../../lib/cli/main';

/** What one command line run produced. */
export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** What one command line run in a child process produced, with the exact bytes it wrote. */
export interface SpawnedCliRun extends CliRun {
  readonly stdoutBytes: Buffer;
  readonly stderrBytes: Buffer;
}

/** Runs `wuwe` in this process through `main(argv, io)`. */
export async function runCli(argv: readonly string[], cwd: string): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    cwd,
    env: {},
    sleep: () => new Promise((resolve) => setTimeout(resolve, 5)),
  });
  return { code, stdout, stderr };
}

const ROOT = join(__dirname, '..', '..');

/** Runs `wuwe` as a real child process (the TypeScript entry file through ts-node). */
export function spawnCli(argv: readonly string[], cwd: string): Promise<SpawnedCliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['-r', require.resolve('ts-node/register/transpile-only'), join(ROOT, 'lib/cli/wuwe.ts'), ...argv],
      {
        cwd,
        env: { ...process.env, TS_NODE_PROJECT: join(ROOT, 'tsconfig.json') },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const stdoutBytes = Buffer.concat(stdout);
      const stderrBytes = Buffer.concat(stderr);
      resolve({
        code: code ?? -1,
        stdout: stdoutBytes.toString('utf8'),
        stderr: stderrBytes.toString('utf8'),
        stdoutBytes,
        stderrBytes,
      });
    });
  });
}
