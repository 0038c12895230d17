import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LlmAgentRunner, ScriptedModelClient } from '../../lib';
import { SqliteRunStore } from '../../lib/durable/sqlite';
import { guardrail } from '../../lib/runner';
import { makeTempDir } from '../durable/temp-dir';
import { FunctionProvider } from '../runner/support';
import { formatProgress } from '../../lib/cli/format-event';
import { runCli } from './cli-harness';

describe('a guardrail stop in runs show and the HTML timeline', () => {
  const dir = makeTempDir('cli-guardrail');
  const path = join(dir.path, 'runs.db');
  afterAll(() => dir.cleanup());

  beforeAll(async () => {
    const store = new SqliteRunStore(path);
    const provider = new FunctionProvider().add('wipe', () => 'wiped', { sideEffect: 'write' });
    await new LlmAgentRunner(
      new ScriptedModelClient([{ toolCalls: [{ name: 'wipe', arguments: {} }] }]),
      provider,
    ).complete('Wipe it', {
      store,
      runId: 'tripped',
      toolGuardrails: { wipe: { before: [{ name: 'no-wipes', check: () => guardrail.tripwire('wipes are off') }] } },
    });
    await store.close();
  });

  it('runs show prints the status and the notice; --json carries it as `guardrail`', async () => {
    const text = await runCli(['runs', 'show', 'tripped', '--store', `sqlite:${path}`], dir.path);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('status:   cancelled');
    expect(text.stdout).toContain(
      "guardrail: [guardrail_tripped] tool before guardrail 'no-wipes' on 'wipe': wipes are off",
    );
    expect(text.stdout).toMatch(/wipe\s.*guardrail_tripped/);
    const json = await runCli(['runs', 'show', 'tripped', '--store', `sqlite:${path}`, '--json'], dir.path);
    expect(JSON.parse(json.stdout).guardrail).toEqual({
      code: 'guardrail_tripped',
      text: "[guardrail_tripped] tool before guardrail 'no-wipes' on 'wipe': wipes are off",
    });
  });

  it('the HTML page has a guardrail row', async () => {
    const out = join(dir.path, 'run.html');
    const exported = await runCli(['export', 'tripped', '--store', `sqlite:${path}`, '--html', out], dir.path);
    expect(exported.code).toBe(0);
    const html = readFileSync(out, 'utf8');
    expect(html).toContain('<tr><th>guardrail</th><td>[guardrail_tripped] tool before guardrail &#39;no-wipes&#39;');
  });

  it('progress lines name a reject and a trip; an allow is left out', () => {
    const base = {
      runId: 'r',
      step: 1,
      kind: 'tool_before',
      name: 'g',
      call: { callId: 'c', turn: 1, toolName: 'wipe' },
    } as const;
    expect(formatProgress({ type: 'guardrail_decided', ...base, verdict: { kind: 'allow' } })).toBeUndefined();
    expect(formatProgress({ type: 'guardrail_decided', ...base, verdict: { kind: 'reject', message: 'no' } })).toBe(
      "[guardrail] tool_before 'g' on wipe rejected: no",
    );
    expect(formatProgress({ type: 'guardrail_tripped', runId: 'r', kind: 'input', name: 'x', reason: 'stop' })).toBe(
      "[guardrail] input 'x' tripped: stop",
    );
  });
});
