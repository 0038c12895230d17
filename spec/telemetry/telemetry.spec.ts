import 'reflect-metadata';
import { AlwaysOffSampler } from '@opentelemetry/sdk-trace-base';
import { Contract, Field, LlmAgentEvent, LlmAgentRunner, ScriptedModelClient, Tool, ToolRegistry } from '../../lib';
import { TELEMETRY_EVENTS, TELEMETRY_METRICS } from '../../lib/telemetry';
import { FunctionProvider } from '../runner/support';
import { TelemetryHarness, telemetryHarness } from './support';

@Tool({ description: 'Get the current weather for a city.' })
@Contract({ sideEffect: 'read', idempotency: 'idempotent' })
class GetWeather {
  @Field({ description: 'City name.' })
  city!: string;

  invoke(): string {
    return `${this.city} is 22 degrees.`;
  }
}

describe('wuwe/telemetry', () => {
  let harness: TelemetryHarness;
  afterEach(async () => harness.shutdown());

  it('traces a run: invoke_agent with chat and execute_tool children, GenAI attributes, contract attributes', async () => {
    harness = telemetryHarness({ agentName: 'weather' });
    const model = new ScriptedModelClient(
      [
        {
          toolCalls: [{ id: 'c1', name: 'GetWeather', arguments: { city: 'Tokyo' } }],
          usage: { inputTokens: 11, outputTokens: 7 },
        },
        { text: 'done', usage: { inputTokens: 20, outputTokens: 3 } },
      ],
      { modelName: 'claude-test' },
    );
    const seen: string[] = [];
    const result = await new LlmAgentRunner(model, new ToolRegistry([GetWeather])).complete(
      'weather?',
      harness.telemetry.runOptions({ onEvent: (event: LlmAgentEvent) => void seen.push(event.type) }),
    );
    await Promise.resolve();
    expect(result.text).toBe('done');
    expect(seen).toContain('tool_call_finished');

    const run = harness.span('invoke_agent weather');
    expect(run.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'weather',
      'wuwe.run.id': result.runId,
      'wuwe.run.stop_reason': 'end_turn',
    });
    const chats = harness.spans().filter((span) => span.name === 'chat');
    expect(chats).toHaveLength(2);
    expect(chats[0].attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'claude-test',
      'gen_ai.response.model': 'claude-test',
      'gen_ai.response.finish_reasons': ['tool_use'],
      'gen_ai.usage.input_tokens': 11,
      'gen_ai.usage.output_tokens': 7,
    });
    const tool = harness.span('execute_tool GetWeather');
    expect(tool.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'GetWeather',
      'gen_ai.tool.call.id': 'c1',
      'wuwe.tool.side_effect': 'read',
      'wuwe.tool.idempotency': 'idempotent',
      'wuwe.tool.attempts': 1,
      'wuwe.projection.truncated': false,
    });
    expect(tool.attributes['error.type']).toBeUndefined();
    expect(tool.events.map((event) => event.name)).toEqual([TELEMETRY_EVENTS.attempt]);
    for (const child of [...chats, tool]) expect(child.parentSpanContext?.spanId).toBe(run.spanContext().spanId);
    for (const child of [...chats, tool]) expect(child.spanContext().traceId).toBe(run.spanContext().traceId);

    const metrics = await harness.metrics();
    const tokens = metrics.get(TELEMETRY_METRICS.tokens)!;
    expect(tokens.find((point) => point.attributes['gen_ai.token.type'] === 'input')?.value).toBe(31);
    expect(tokens.find((point) => point.attributes['gen_ai.token.type'] === 'output')?.value).toBe(10);
    expect(metrics.get(TELEMETRY_METRICS.toolDuration)).toEqual([
      { value: 1, attributes: { 'gen_ai.tool.name': 'GetWeather' } },
    ]);
  });

  it('records no arguments, results or model text unless the host opts in', async () => {
    const script = (): ScriptedModelClient =>
      new ScriptedModelClient([
        { toolCalls: [{ id: 'c1', name: 'GetWeather', arguments: { city: 'Secret City' } }] },
        { text: 'private answer' },
      ]);
    harness = telemetryHarness();
    await new LlmAgentRunner(script(), new ToolRegistry([GetWeather])).complete('go', harness.telemetry.runOptions());
    await Promise.resolve();
    expect(JSON.stringify(harness.spans().map((span) => span.attributes))).not.toMatch(/Secret City|private answer/);
    await harness.shutdown();

    harness = telemetryHarness({ recordContent: true });
    await new LlmAgentRunner(script(), new ToolRegistry([GetWeather])).complete('go', harness.telemetry.runOptions());
    await Promise.resolve();
    const tool = harness.span('execute_tool GetWeather');
    expect(JSON.parse(tool.attributes['gen_ai.tool.call.arguments'] as string)).toEqual({ city: 'Secret City' });
    expect(tool.attributes['gen_ai.tool.call.result']).toContain('Secret City is 22 degrees.');
    expect(
      harness.spans().some((span) => String(span.attributes['gen_ai.output.messages']).includes('private answer')),
    ).toBe(true);
  });

  it('records retries, timeouts and truncations as span events and metrics, failures as error.type', async () => {
    harness = telemetryHarness();
    let flaky = 0;
    const provider = new FunctionProvider()
      .add(
        'flaky',
        () =>
          ++flaky === 1
            ? { ok: false, error: { code: 'unavailable', category: 'unavailable', message: 'down', retryable: true } }
            : 'up',
        {
          idempotency: 'idempotent',
          retry: { maxAttempts: 2, initialDelayMs: 1, jitter: 0 },
        },
      )
      .add('slow', () => new Promise(() => undefined), { timeoutMs: 20, idempotency: 'idempotent' })
      .add('big', () => 'x'.repeat(5_000), { modelOutputProjection: { maxBytes: 512 } })
      .add('drop', () => 'dropped', { sideEffect: 'destructive' });
    const model = new ScriptedModelClient([
      {
        toolCalls: [
          { id: 'f', name: 'flaky' },
          { id: 's', name: 'slow' },
          { id: 'b', name: 'big' },
          { id: 'd', name: 'drop' },
          { id: 'u', name: 'nope' },
        ],
      },
      { text: 'done' },
    ]);
    await new LlmAgentRunner(model, provider).complete(
      'go',
      harness.telemetry.runOptions({ approvalHandler: () => ({ approved: false, reason: 'not today' }) }),
    );
    await Promise.resolve();

    const flakySpan = harness.span('execute_tool flaky');
    expect(flakySpan.attributes['wuwe.tool.attempts']).toBe(2);
    expect(flakySpan.events.map((event) => event.name)).toEqual([
      TELEMETRY_EVENTS.attempt,
      TELEMETRY_EVENTS.retry,
      TELEMETRY_EVENTS.attempt,
    ]);
    expect(flakySpan.events[1].attributes).toMatchObject({ 'error.type': 'unavailable', 'wuwe.tool.attempt': 1 });

    const slowSpan = harness.span('execute_tool slow');
    expect(slowSpan.attributes['error.type']).toBe('timeout');
    expect(slowSpan.status.code).toBe(2);
    expect(slowSpan.events.map((event) => event.name)).toContain(TELEMETRY_EVENTS.timeout);

    const bigSpan = harness.span('execute_tool big');
    expect(bigSpan.events.map((event) => event.name)).toContain(TELEMETRY_EVENTS.truncated);
    expect(bigSpan.attributes).toMatchObject({
      'wuwe.projection.truncated': true,
      'wuwe.projection.projected_bytes': expect.any(Number),
    });
    expect(bigSpan.attributes['wuwe.projection.original_bytes']).toBeGreaterThanOrEqual(5_000);

    const dropSpan = harness.span('execute_tool drop');
    expect(dropSpan.attributes).toMatchObject({
      'wuwe.approval.decision': 'denied',
      'wuwe.approval.reason': 'not today',
      'error.type': 'approval_denied',
      'wuwe.tool.side_effect': 'destructive',
    });

    expect(harness.span('execute_tool nope').attributes).toMatchObject({
      'error.type': 'unknown_tool',
      'wuwe.tool.refused': true,
    });

    const metrics = await harness.metrics();
    expect(metrics.get(TELEMETRY_METRICS.retries)).toEqual([
      { value: 1, attributes: { 'gen_ai.tool.name': 'flaky', 'error.type': 'unavailable' } },
    ]);
    expect(metrics.get(TELEMETRY_METRICS.timeouts)).toEqual([
      { value: 1, attributes: { 'gen_ai.tool.name': 'slow', 'wuwe.timeout.limit': 'deadline' } },
    ]);
    expect(metrics.get(TELEMETRY_METRICS.truncations)).toEqual([
      { value: 1, attributes: { 'gen_ai.tool.name': 'big' } },
    ]);
  });

  it('counts every metric of a run whose trace is not sampled, and exports none of its spans', async () => {
    harness = telemetryHarness({}, new AlwaysOffSampler());
    let flaky = 0;
    const provider = new FunctionProvider()
      .add(
        'flaky',
        () =>
          ++flaky === 1
            ? { ok: false, error: { code: 'unavailable', category: 'unavailable', message: 'down', retryable: true } }
            : 'up',
        {
          idempotency: 'idempotent',
          retry: { maxAttempts: 2, initialDelayMs: 1, jitter: 0 },
        },
      )
      .add('slow', () => new Promise(() => undefined), { timeoutMs: 20, idempotency: 'idempotent' })
      .add('big', () => 'x'.repeat(5_000), { modelOutputProjection: { maxBytes: 512 } });
    const model = new ScriptedModelClient([
      {
        toolCalls: [
          { id: 'f', name: 'flaky' },
          { id: 's', name: 'slow' },
          { id: 'b', name: 'big' },
        ],
      },
      { text: 'done' },
    ]);
    await new LlmAgentRunner(model, provider).complete('go', harness.telemetry.runOptions());
    await Promise.resolve();
    expect(harness.spans()).toEqual([]);
    const metrics = await harness.metrics();
    expect(metrics.get(TELEMETRY_METRICS.retries)).toEqual([
      { value: 1, attributes: { 'gen_ai.tool.name': 'flaky', 'error.type': 'unavailable' } },
    ]);
    expect(metrics.get(TELEMETRY_METRICS.timeouts)).toEqual([
      { value: 1, attributes: { 'gen_ai.tool.name': 'slow', 'wuwe.timeout.limit': 'deadline' } },
    ]);
    expect(metrics.get(TELEMETRY_METRICS.truncations)).toEqual([
      { value: 1, attributes: { 'gen_ai.tool.name': 'big' } },
    ]);
    expect(
      metrics
        .get(TELEMETRY_METRICS.toolDuration)!
        .map((point) => point.attributes['gen_ai.tool.name'])
        .sort(),
    ).toEqual(['big', 'flaky', 'slow']);
    expect(metrics.get(TELEMETRY_METRICS.tokens)!.length).toBeGreaterThan(0);
  });

  it('ends every open span with an error status when the run rejects', async () => {
    harness = telemetryHarness();
    const model = new ScriptedModelClient([]);
    await expect(
      harness.telemetry.trace(undefined, (options) =>
        new LlmAgentRunner(model, new FunctionProvider()).complete('go', options),
      ),
    ).rejects.toThrow();
    const run = harness.span('invoke_agent');
    expect(run.status.code).toBe(2);
    expect(run.attributes['error.type']).toBe('script_exhausted');
    expect(harness.span('chat').attributes['error.type']).toBe('script_exhausted');
  });
});
