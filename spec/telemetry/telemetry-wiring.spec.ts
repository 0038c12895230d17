import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { LlmAgentRunner, ScriptedModelClient } from '../../lib';
import { createTelemetry, TELEMETRY_EVENTS } from '../../lib/telemetry';
import { FunctionProvider } from '../runner/support';
import { TelemetryHarness, telemetryHarness } from './support';

const ROOT = resolve(__dirname, '../..');

/** Runs `script` in a fresh Node process with ts-node; a preload can hide `@opentelemetry/api`. */
function node(script: string, hideOtel: boolean): string {
  const hide =
    "const M=require('module');const r=M._resolveFilename;M._resolveFilename=function(n,...a){if(n.startsWith('@opentelemetry/'))throw Object.assign(new Error('Cannot find module '+n),{code:'MODULE_NOT_FOUND'});return r.call(this,n,...a)};";
  return execFileSync(
    process.execPath,
    ['-r', 'ts-node/register/transpile-only', '-e', (hideOtel ? hide : '') + script],
    { cwd: ROOT, encoding: 'utf8' },
  );
}

describe('wuwe/telemetry wiring', () => {
  let harness: TelemetryHarness | undefined;
  afterEach(async () => harness?.shutdown());

  it("still calls the host's own onEvent, onToolResult and onToolOutputProjection, and records heartbeats", async () => {
    harness = telemetryHarness();
    const provider = new FunctionProvider({ heartbeat: true }).add(
      'work',
      async (invocation) => {
        invocation.reportHeartbeat({ fraction: 0.5, message: 'half of customer-42' });
        await new Promise((done) => setTimeout(done, 5));
        return 'ok';
      },
      { heartbeat: { idleTimeoutMs: 1_000 } },
    );
    const seen = { events: 0, results: 0, projections: 0 };
    const model = new ScriptedModelClient([{ toolCalls: [{ id: 'w', name: 'work' }] }, { text: 'done' }]);
    await new LlmAgentRunner(model, provider).complete(
      'go',
      harness.telemetry.runOptions({
        onEvent: () => void seen.events++,
        onToolResult: () => void seen.results++,
        onToolOutputProjection: () => void seen.projections++,
      }),
    );
    await Promise.resolve();
    expect(seen.events).toBeGreaterThan(5);
    expect(seen).toMatchObject({ results: 1, projections: 1 });
    const heartbeat = harness
      .span('execute_tool work')
      .events.find((event) => event.name === TELEMETRY_EVENTS.heartbeat);
    expect(heartbeat?.attributes).toEqual({ 'wuwe.tool.attempt': 1, 'wuwe.heartbeat.fraction': 0.5 });
  });

  it('invokeToolCall ends its invoke_agent span, on success and when the call cannot start', async () => {
    harness = telemetryHarness();
    const provider = new FunctionProvider().add('work', () => 'ok');
    const runner = new LlmAgentRunner(new ScriptedModelClient([]), provider);
    const events: string[] = [];
    const result = await runner.invokeToolCall(
      { id: 'c1', name: 'work', arguments: '{}' },
      harness.telemetry.runOptions({ onEvent: (event) => void events.push(event.type) }),
    );
    expect(result.outcome.ok).toBe(true);
    expect(events[0]).toBe('run_started');
    expect(events.at(-1)).toBe('run_finished');
    expect(harness.span('invoke_agent').ended).toBe(true);
    expect(harness.span('execute_tool work').parentSpanContext?.spanId).toBe(
      harness.span('invoke_agent').spanContext().spanId,
    );

    await expect(
      runner.invokeToolCall(
        { id: 'c2', name: 'work', arguments: '{}' },
        harness.telemetry.runOptions({ store: { broken: true } as never }),
      ),
    ).rejects.toThrow();
    expect(harness.spans().filter((span) => span.name === 'invoke_agent')).toHaveLength(2);
  });

  it('is a no-op through the global API when no SDK is registered', async () => {
    const telemetry = createTelemetry();
    const model = new ScriptedModelClient([{ toolCalls: [{ id: 'a', name: 'echo' }] }, { text: 'done' }]);
    const result = await new LlmAgentRunner(
      model,
      new FunctionProvider().add('echo', () => 'hi'),
    ).complete('go', telemetry.runOptions());
    expect(result.text).toBe('done');
  });

  it('the core entry loads no part of wuwe/telemetry, and createTelemetry without @opentelemetry/api throws missing_dependency', () => {
    expect(
      node(
        "require('./lib');console.log(Object.keys(require.cache).some((f)=>f.includes('/lib/telemetry/')))",
        false,
      ).trim(),
    ).toBe('false');
    const out = node(
      "const t=require('./lib/telemetry');try{t.createTelemetry();console.log('created')}catch(e){console.log(e.code+' '+e.packageName)}",
      true,
    );
    expect(out.trim()).toBe('missing_dependency @opentelemetry/api');
  });
});
