import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { main } from '../../lib/cli/main';

/** What one command line run produced. */
export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
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
export function spawnCli(argv: readonly string[], cwd: string): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', require.resolve('ts-node/register/transpile-only'), join(ROOT, 'lib/cli/wuwe.ts'), ...argv], {
      cwd,
      env: { ...process.env, TS_NODE_PROJECT: join(ROOT, 'tsconfig.json') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
