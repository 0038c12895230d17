import { execFile } from 'node:child_process';
import path from 'node:path';

const ROOT = path.join(__dirname, '../..');

/** Runs vitest (its own transform, not ts-jest) on the decorated-tool fixture in a child process. */
function runVitest(): Promise<{ code: number; output: string }> {
  const vitest = path.join(ROOT, 'node_modules/vitest/vitest.mjs');
  const config = path.join(__dirname, 'fixtures/vitest/vitest.config.ts');
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [vitest, 'run', '--config', config],
      { cwd: ROOT, env: { ...process.env, NO_COLOR: '1', CI: '1' } },
      (error, stdout, stderr) => {
        resolve({
          code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1,
          output: `${stdout}${stderr}`,
        });
      },
    );
  });
}

describe('vitest', () => {
  it('runs a decorated tool test: explicit types, design:type, parse, refusal and invoke', async () => {
    const { code, output } = await runVitest();
    expect(output).toMatch(/Tests\s+3 passed \(3\)/);
    expect(code).toBe(0);
  }, 120_000);
});
