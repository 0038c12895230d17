import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { freeLoopbackPort } from '../support/throwaway-postgres';

const root = resolve(__dirname, '../..');
jest.setTimeout(180_000);

describe('npm run demo on first contact', () => {
  it('with a bad key and no network prints one clear line and exits non-zero, without a stack trace', async () => {
    // Nothing listens on this port: every request fails to connect, as without network.
    const port = await freeLoopbackPort();
    const result = spawnSync(
      process.execPath,
      [join(root, 'node_modules', 'ts-node', 'dist', 'bin.js'), '--transpile-only', 'samples/run-all.ts'],
      {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, ANTHROPIC_API_KEY: 'sk-bad-key', ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}` },
      },
    );
    expect(result.status).not.toBe(0);
    const lines = result.stderr.split('\n').filter((line) => line.trim().length > 0);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^demo failed: ModelApiError \(\w+\): /);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('with OPENAI_BASE_URL at a closed port, says it runs through @ai-sdk/openai, then prints one connection error line', async () => {
    const port = await freeLoopbackPort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      OPENAI_API_KEY: 'sk-bad-key',
      OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`,
    };
    delete env.ANTHROPIC_API_KEY;
    const result = spawnSync(
      process.execPath,
      [join(root, 'node_modules', 'ts-node', 'dist', 'bin.js'), '--transpile-only', 'samples/run-all.ts'],
      { cwd: root, encoding: 'utf8', env },
    );
    expect(result.status).not.toBe(0);
    expect(result.stdout.split('\n')[0]).toContain(
      `through @ai-sdk/openai and AiSdkModelClient, on the server at OPENAI_BASE_URL (http://127.0.0.1:${port}/v1)`,
    );
    const lines = result.stderr.split('\n').filter((line) => line.trim().length > 0);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^demo failed: ModelApiError \(connection\): Model request to openai\.chat failed/);
  });
});
