import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '../..');
const samples = join(root, 'samples');
jest.setTimeout(300_000);

/** What each numbered sample must print when it runs offline as a program: lines a broken sample could not print. */
const EXPECTED_OUTPUT: Readonly<Record<string, readonly RegExp[]>> = {
  '01-define-a-tool': [
    /^GetWeather \{"city":"Tokyo"\} -> \{"ok":true,"text":"Tokyo is 22 degrees\."\}$/m,
    /\(stop: end_turn, 1 tool call\)$/m,
  ],
  '02-approval': [
    /^RefundOrder \{"orderId":"A-1","amountCents":2500\} -> ok$/m,
    /^RefundOrder \{"orderId":"B-2","amountCents":90000\} -> approval_denied: .*need a manager$/m,
    /^refunds made: A-1$/m,
  ],
  '03-durable': [
    /^run [\w-]+: awaiting_approval$/m,
    /^resumed: end_turn, status completed: /m,
    /^executions: weather 1, refund 1$/m,
  ],
  '04-mcp': [
    /^client lists: remote_get_weather \(read\)$/m,
    /^remote_get_weather -> \{"ok":true,"data":\{"city":"Tokyo","celsius":22\}\}$/m,
  ],
  '05-nest': [/^From the tool: Tokyo is \d+ degrees/m],
  '06-agent-tour': [
    /^stop: end_turn after \d+ model requests, 6 tool calls$/m,
    /is completed; 5 tool outcomes admitted/m,
  ],
  '07-multi-agent': [
    /^support-1: awaiting_approval, waiting in support-1\/call_1_0-[0-9a-f]{12}$/m,
    /^child runs: billing completed$/m,
    /^refunds made: A-1$/m,
  ],
  '08-ui-stream': [
    /^approval requested: tool-RefundOrder \{"orderId":"A-1","amountCents":2500\}$/m,
    /^answer: .*Refunded order A-1/m,
    /^refunds made: 1$/m,
  ],
};

/** Runs `samples/<name>/main.ts` as a program (ts-node, as its header says), offline: no model variable is set. */
function runSample(name: string, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const variable of ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'OPENAI_BASE_URL', 'OPENAI_MODEL'])
    delete env[variable];
  const ts = join(root, 'node_modules', 'ts-node', 'dist', 'bin.js');
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [ts, '--transpile-only', join(samples, name, 'main.ts')], { cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', fail);
    child.on('exit', (code) => done({ code, stdout, stderr }));
  });
}

describe('samples/NN-*: the numbered samples', () => {
  const numbered = readdirSync(samples)
    .filter((name) => /^\d\d-[a-z0-9-]+$/.test(name))
    .sort();

  it('each numbered folder has a main.ts, and each is checked here', () => {
    expect(numbered.filter((name) => !existsSync(join(samples, name, 'main.ts')))).toEqual([]);
    expect(numbered).toEqual(Object.keys(EXPECTED_OUTPUT).sort());
  });

  it.each(Object.keys(EXPECTED_OUTPUT))(
    '%s runs offline as a program, exits 0 and prints what it shows',
    async (name) => {
      const { code, stdout, stderr } = await runSample(name, root);
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      for (const expected of EXPECTED_OUTPUT[name]) expect(stdout).toMatch(expected);
    },
  );
});
