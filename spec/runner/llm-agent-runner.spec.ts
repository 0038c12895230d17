import {
  Field,
  LlmAgentEvent,
  LlmAgentRunner,
  ScriptedModelClient,
  Tool,
  ToolOutcome,
  toolFailure,
  ReflectedToolProvider,
} from '../../lib';
import { FunctionProvider } from './support';

@Tool({ description: 'Get the current weather for a city.' })
class GetWeather {
  @Field({ description: 'City name.' }) city!: string;
  invoke(): string {
    return `${this.city} is 22 degrees.`;
  }
}

function oneCall(name: string, args: unknown, id = 'call_1') {
  return new ScriptedModelClient([{ toolCalls: [{ id, name, arguments: args as string }] }, { text: 'done' }]);
}

function failureOf(content: string): { code: string; category: string; retryable: boolean; details?: any } {
  const parsed = JSON.parse(content);
  expect(parsed.ok).toBe(false);
  return parsed.error;
}

describe('LlmAgentRunner.complete', () => {
  it('runs the README weather example through a two-step loop', async () => {
    const model = new ScriptedModelClient([
      { toolCalls: [{ name: 'GetWeather', arguments: '{"city":"Tokyo"}' }] },
      { text: 'It is 22 degrees in Tokyo.' },
    ]);
    const runner = model.bindTools(GetWeather);
    const result = await runner.complete("What's the weather in Tokyo?");
    expect(result.text).toBe('It is 22 degrees in Tokyo.');
    expect(result.stopReason).toBe('end_turn');
    expect(result.steps).toBe(2);
    expect(result.toolCalls).toHaveLength(1);
    expect(result.toolCalls[0].outcome).toEqual({ ok: true, text: 'Tokyo is 22 degrees.' });
    expect(result.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(model.requests[1].messages[2]).toEqual({
      role: 'tool',
      toolCallId: 'call_1_0',
      toolName: 'GetWeather',
      content: 'Tokyo is 22 degrees.',
      isError: false,
    });
    expect(model.requests[0].tools[0].name).toBe('GetWeather');
  });

  it('stops at maxSteps', async () => {
    const loop = { toolCalls: [{ name: 'GetWeather', arguments: { city: 'Oslo' } }] };
    const runner = new ScriptedModelClient([loop, loop, loop, loop]).bindTools(GetWeather);
    const result = await runner.complete('loop', { maxSteps: 3 });
    expect(result.stopReason).toBe('max_steps');
    expect(result.steps).toBe(3);
  });

  it('runs the calls of one turn concurrently and returns results in call order', async () => {
    const order: string[] = [];
    const provider = new FunctionProvider()
      .add('slow', async () => {
        await new Promise((r) => setTimeout(r, 30));
        order.push('slow');
        return 'slow done';
      })
      .add('fast', () => {
        order.push('fast');
        return 'fast done';
      });
    const model = new ScriptedModelClient([
      {
        toolCalls: [
          { id: 'a', name: 'slow' },
          { id: 'b', name: 'fast' },
        ],
      },
      { text: 'ok' },
    ]);
    const result = await new LlmAgentRunner(model, provider).complete('go');
    expect(order).toEqual(['fast', 'slow']);
    expect(result.toolCalls.map((c) => c.content)).toEqual(['slow done', 'fast done']);
    const toolMessages = model.requests[1].messages.filter((m) => m.role === 'tool');
    expect(toolMessages.map((m) => (m as any).toolCallId)).toEqual(['a', 'b']);
  });

  it('gives every call of an aborted turn a cancelled result', async () => {
    const controller = new AbortController();
    const provider = new FunctionProvider().add('hang', () => new Promise(() => undefined));
    const model = new ScriptedModelClient([
      {
        toolCalls: [
          { id: 'x', name: 'hang' },
          { id: 'y', name: 'hang' },
        ],
      },
    ]);
    setTimeout(() => controller.abort(), 20);
    const result = await new LlmAgentRunner(model, provider).complete('go', { signal: controller.signal });
    expect(result.stopReason).toBe('aborted');
    expect(result.toolCalls.map((c) => failureOf(c.content).code)).toEqual(['cancelled', 'cancelled']);
    expect(result.messages.filter((m) => m.role === 'tool')).toHaveLength(2);
  });
});

describe('per-call policies', () => {
  it('1. unknown tool -> unknown_tool, nothing invoked', async () => {
    const provider = new FunctionProvider().add('known', () => 'x');
    const record = await new LlmAgentRunner(oneCall('nope', {}), provider).invokeToolCall({
      id: 'c',
      name: 'nope',
      arguments: {},
    });
    expect(failureOf(record.content).code).toBe('unknown_tool');
    expect(provider.calls).toHaveLength(0);
  });

  it('2. invalid arguments -> every issue by JSON Pointer, nothing invoked, never retried', async () => {
    const provider = new FunctionProvider().add(
      'needs',
      () => 'x',
      { idempotency: 'idempotent', retry: { maxAttempts: 3 } },
      { city: { type: 'string' }, days: { type: 'integer' } },
    );
    const runner = new LlmAgentRunner(oneCall('needs', {}), provider);
    const record = await runner.invokeToolCall({ id: 'c', name: 'needs', arguments: '{"days":1.5,"extra":true}' });
    const error = failureOf(record.content);
    expect(error.code).toBe('invalid_arguments');
    expect(error.retryable).toBe(false);
    expect(error.details.issues.map((i: any) => i.pointer).sort()).toEqual(['/city', '/days', '/extra']);
    expect(record.attempts).toBe(0);
    expect(provider.calls).toHaveLength(0);
    const notJson = await runner.invokeToolCall({ id: 'd', name: 'needs', arguments: '{"city":' });
    expect(failureOf(notJson.content).code).toBe('invalid_json');
  });

  it('3. a contract needing an undeclared capability is rejected before dispatch', async () => {
    const provider = new FunctionProvider({}).add('keyed', () => 'x', { idempotency: 'idempotent_with_key' });
    const record = await new LlmAgentRunner(oneCall('keyed', {}), provider).invokeToolCall({
      id: 'c',
      name: 'keyed',
      arguments: {},
    });
    const error = failureOf(record.content);
    expect(error.code).toBe('capability_mismatch');
    expect(JSON.parse(record.content).error.message).toContain('idempotencyKey');
    expect(provider.calls).toHaveLength(0);
  });

  it('3. a reflected provider declares no capability even though it can be wrapped', async () => {
    const reflected = new ReflectedToolProvider([GetWeather]);
    expect(reflected.capabilities('GetWeather')).toEqual({
      invocationContext: false,
      idempotencyKey: false,
      heartbeat: false,
      compensation: false,
    });
  });

  it('idempotency key and context reach only providers that declare them, same key on every attempt', async () => {
    let attempts = 0;
    const fn = () => (++attempts < 3 ? toolFailure({ code: 'unavailable', message: 'busy' }) : 'ok');
    const keyed = new FunctionProvider({ idempotencyKey: true, invocationContext: true }).add('t', fn, {
      idempotency: 'idempotent_with_key',
      retry: { maxAttempts: 3, initialDelayMs: 1 },
    });
    const record = await new LlmAgentRunner(oneCall('t', {}), keyed).invokeToolCall(
      { id: 'c', name: 't', arguments: {} },
      { runId: 'run-1', context: { tenant: 'a' } },
    );
    expect(record.outcome.ok).toBe(true);
    expect(keyed.calls.map((c) => c.idempotencyKey)).toEqual([
      record.idempotencyKey,
      record.idempotencyKey,
      record.idempotencyKey,
    ]);
    expect(keyed.calls.map((c) => c.callId)).toEqual(['c', 'c', 'c']);
    expect(keyed.calls[0].context).toEqual({ tenant: 'a' });
    const plain = new FunctionProvider().add('t', () => 'ok');
    await new LlmAgentRunner(oneCall('t', {}), plain).invokeToolCall(
      { id: 'c', name: 't', arguments: {} },
      { runId: 'run-1', context: { tenant: 'a' } },
    );
    expect(plain.calls[0].idempotencyKey).toBeUndefined();
    expect(plain.calls[0].context).toBeUndefined();
  });

  it('4. allowToolCall refuses with permission_denied and sees the parsed arguments', async () => {
    const provider = new FunctionProvider().add('t', () => 'x', {}, { path: { type: 'string' } });
    const seen: unknown[] = [];
    const record = await new LlmAgentRunner(oneCall('t', {}), provider).invokeToolCall(
      { id: 'c', name: 't', arguments: '{"path":"/etc/passwd"}' },
      {
        allowToolCall: (request) => (seen.push(request.arguments), { allowed: false, reason: 'outside the workspace' }),
      },
    );
    expect(seen).toEqual([{ path: '/etc/passwd' }]);
    const error = failureOf(record.content);
    expect(error.code).toBe('permission_denied');
    expect(JSON.parse(record.content).error.message).toContain('outside the workspace');
    expect(provider.calls).toHaveLength(0);
  });

  it('5. approval: denied without a handler (fail closed), granted by a handler', async () => {
    const provider = new FunctionProvider().add('rm', () => 'deleted', { sideEffect: 'destructive' });
    const runner = new LlmAgentRunner(oneCall('rm', {}), provider);
    const denied = await runner.invokeToolCall({ id: 'c', name: 'rm', arguments: {} });
    expect(failureOf(denied.content).code).toBe('approval_denied');
    expect(provider.calls).toHaveLength(0);
    const approved = await runner.invokeToolCall(
      { id: 'd', name: 'rm', arguments: {} },
      { approvalHandler: () => ({ approved: true }) },
    );
    expect(approved.outcome).toEqual({ ok: true, text: 'deleted' });
  });

  it('6. resource version: missing expected version -> precondition_failed; returned version exposed', async () => {
    const provider = new FunctionProvider().add(
      'update',
      () => ({ version: 8 }),
      { resourceVersion: { requireExpectedVersion: true } },
      { expectedVersion: { type: 'integer' } },
    );
    const schemaLess = new FunctionProvider().add('update', () => ({ version: 8 }), {
      resourceVersion: { requireExpectedVersion: true },
    });
    const missing = await new LlmAgentRunner(oneCall('update', {}), schemaLess).invokeToolCall({
      id: 'c',
      name: 'update',
      arguments: {},
    });
    expect(failureOf(missing.content).code).toBe('precondition_failed');
    expect(schemaLess.calls).toHaveLength(0);
    const ok = await new LlmAgentRunner(oneCall('update', {}), provider).invokeToolCall({
      id: 'c',
      name: 'update',
      arguments: { expectedVersion: 7 },
    });
    expect(ok.outcome.resourceVersion).toBe(8);
  });

  it('7. a non-cooperative tool: the runner returns at its deadline and discards the late result', async () => {
    const events: LlmAgentEvent[] = [];
    let release!: () => void;
    const provider = new FunctionProvider().add(
      'stuck',
      () => new Promise<string>((resolve) => (release = () => resolve('late'))),
      { timeoutMs: 50 },
    );
    const started = Date.now();
    const record = await new LlmAgentRunner(oneCall('stuck', {}), provider).invokeToolCall(
      { id: 'c', name: 'stuck', arguments: {} },
      { onEvent: (e) => events.push(e) },
    );
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(45);
    expect(elapsed).toBeLessThan(1000);
    expect(failureOf(record.content).code).toBe('timeout');
    expect(provider.calls[0].signal.aborted).toBe(true);
    release();
    await new Promise((r) => setImmediate(r));
    expect(events.some((e) => e.type === 'tool_late_result_discarded')).toBe(true);
    expect(events.some((e) => e.type === 'tool_timeout')).toBe(true);
  });

  it('7. a busy promise that never settles does not hold the run past the deadline', async () => {
    const provider = new FunctionProvider().add('never', () => new Promise(() => undefined), { timeoutMs: 30 });
    const model = new ScriptedModelClient([{ toolCalls: [{ name: 'never' }] }, { text: 'gave up' }]);
    const result = await new LlmAgentRunner(model, provider).complete('go');
    expect(result.text).toBe('gave up');
    expect(failureOf(result.toolCalls[0].content).code).toBe('timeout');
  });

  it('7. heartbeats keep a long call alive, are surfaced, and silence aborts it', async () => {
    const events: LlmAgentEvent[] = [];
    const provider = new FunctionProvider({ heartbeat: true })
      .add(
        'beats',
        async (inv) => {
          for (let i = 1; i <= 4; i++) {
            await new Promise((r) => setTimeout(r, 20));
            inv.reportHeartbeat({ fraction: i / 4 });
          }
          return 'finished';
        },
        { heartbeat: { idleTimeoutMs: 60 }, timeoutMs: 5000 },
      )
      .add('silent', () => new Promise(() => undefined), { heartbeat: { idleTimeoutMs: 40 }, timeoutMs: 5000 });
    const runner = new LlmAgentRunner(oneCall('beats', {}), provider);
    const ok = await runner.invokeToolCall(
      { id: 'c', name: 'beats', arguments: {} },
      { onEvent: (e) => events.push(e) },
    );
    expect(ok.outcome).toEqual({ ok: true, text: 'finished' });
    expect(events.filter((e) => e.type === 'tool_heartbeat').map((e) => (e as any).progress.fraction)).toEqual([
      0.25, 0.5, 0.75, 1,
    ]);
    const silent = await runner.invokeToolCall({ id: 'd', name: 'silent', arguments: {} });
    expect(failureOf(silent.content).code).toBe('heartbeat_timeout');
  });

  it('7. heartbeats never extend the hard deadline', async () => {
    const provider = new FunctionProvider({ heartbeat: true }).add(
      'chatty',
      async (inv) => {
        for (;;) {
          await new Promise((r) => setTimeout(r, 10));
          if (inv.signal.aborted) return 'stopped';
          inv.reportHeartbeat();
        }
      },
      { heartbeat: { idleTimeoutMs: 50 }, timeoutMs: 80 },
    );
    const record = await new LlmAgentRunner(oneCall('chatty', {}), provider).invokeToolCall({
      id: 'c',
      name: 'chatty',
      arguments: {},
    });
    expect(failureOf(record.content).code).toBe('timeout');
  });

  it('8. retries retryable failures of idempotent tools with backoff and jitter from the injected random', async () => {
    const events: LlmAgentEvent[] = [];
    let calls = 0;
    const provider = new FunctionProvider().add(
      'flaky',
      () => (++calls < 3 ? toolFailure({ code: 'unavailable', message: 'down' }) : 'up'),
      {
        idempotency: 'idempotent',
        retry: { maxAttempts: 5, initialDelayMs: 10, backoffCoefficient: 2, jitter: 0.5 },
      },
    );
    const record = await new LlmAgentRunner(oneCall('flaky', {}), provider).invokeToolCall(
      { id: 'c', name: 'flaky', arguments: {} },
      { onEvent: (e) => events.push(e), random: () => 0 },
    );
    expect(record.outcome).toEqual({ ok: true, text: 'up' });
    expect(record.attempts).toBe(3);
    expect(events.filter((e) => e.type === 'tool_retry').map((e) => (e as any).delayMs)).toEqual([5, 10]);
  });

  it('8. never retries a non-retryable category or a non-idempotent tool without compensation', async () => {
    const provider = new FunctionProvider()
      .add('denied', () => toolFailure({ code: 'permission_denied', message: 'no' }), {
        idempotency: 'idempotent',
        retry: { maxAttempts: 3, initialDelayMs: 1 },
      })
      .add('once', () => toolFailure({ code: 'unavailable', message: 'down' }));
    const runner = new LlmAgentRunner(oneCall('x', {}), provider);
    expect((await runner.invokeToolCall({ id: 'a', name: 'denied', arguments: {} })).attempts).toBe(1);
    expect((await runner.invokeToolCall({ id: 'b', name: 'once', arguments: {} })).attempts).toBe(1);
  });

  it('8. a non-idempotent failure is retried only after compensation required and succeeded', async () => {
    const failing = (): ToolOutcome => ({
      ...toolFailure({ code: 'unavailable', message: 'half done' }),
      compensation: 'required',
    });
    const contract = { compensation: { enabled: true }, retry: { maxAttempts: 2, initialDelayMs: 1 } };
    const good = new FunctionProvider({ compensation: true }).add('charge', failing, contract);
    const record = await new LlmAgentRunner(oneCall('charge', {}), good).invokeToolCall({
      id: 'c',
      name: 'charge',
      arguments: {},
    });
    expect(record.attempts).toBe(2);
    expect(good.compensations).toHaveLength(2 - 1);
    const bad = new FunctionProvider({ compensation: true }, { ok: false }).add('charge', failing, contract);
    const stopped = await new LlmAgentRunner(oneCall('charge', {}), bad).invokeToolCall({
      id: 'c',
      name: 'charge',
      arguments: {},
    });
    expect(stopped.attempts).toBe(1);
    expect(stopped.outcome.compensation).toBe('failed');
    const notRequired = new FunctionProvider({ compensation: true }).add(
      'charge',
      () => toolFailure({ code: 'unavailable', message: 'x' }),
      contract,
    );
    expect(
      (
        await new LlmAgentRunner(oneCall('charge', {}), notRequired).invokeToolCall({
          id: 'c',
          name: 'charge',
          arguments: {},
        })
      ).attempts,
    ).toBe(1);
  });

  it('9. prepareToolResult then output validation: strict, warning, disabled', async () => {
    const outputSchema = {
      type: 'object',
      properties: { n: { type: 'integer' } },
      required: ['n'],
      additionalProperties: false,
    };
    const make = (mode: 'strict' | 'warning' | 'disabled') =>
      new FunctionProvider().add('t', () => ({ n: 'not a number' }), { outputSchema, outputValidation: mode });
    const strict = await new LlmAgentRunner(oneCall('t', {}), make('strict')).invokeToolCall({
      id: 'c',
      name: 't',
      arguments: {},
    });
    expect(failureOf(strict.content).code).toBe('output_validation');
    const warning = await new LlmAgentRunner(oneCall('t', {}), make('warning')).invokeToolCall({
      id: 'c',
      name: 't',
      arguments: {},
    });
    expect(warning.outcome.ok).toBe(true);
    expect((warning.outcome.metadata as any).outputValidationIssues[0].pointer).toBe('/n');
    const disabled = await new LlmAgentRunner(oneCall('t', {}), make('disabled')).invokeToolCall({
      id: 'c',
      name: 't',
      arguments: {},
    });
    expect(disabled.outcome.metadata).toBeUndefined();
    const prepared = await new LlmAgentRunner(oneCall('t', {}), make('strict')).invokeToolCall(
      { id: 'c', name: 't', arguments: {} },
      { prepareToolResult: (outcome) => ({ ...outcome, data: { n: 1 } }) },
    );
    expect(prepared.outcome).toEqual({ ok: true, data: { n: 1 } });
  });

  it('10. onToolResult gets the complete outcome; failures reach the model as the explicit ok:false object', async () => {
    const seen: ToolOutcome[] = [];
    const provider = new FunctionProvider().add('boom', () => {
      throw new Error('disk on fire');
    });
    const record = await new LlmAgentRunner(oneCall('boom', {}), provider).invokeToolCall(
      { id: 'c', name: 'boom', arguments: {} },
      { onToolResult: (o) => void seen.push(o) },
    );
    expect(seen[0]).toEqual(record.outcome);
    expect(JSON.parse(record.content)).toEqual({
      ok: false,
      error: { code: 'tool_error', category: 'internal', message: 'disk on fire', retryable: false },
    });
  });

  it('a tool that throws synchronously, rejects, or returns a thenable whose then() throws: each is a tool_error for that call only', async () => {
    const provider = new FunctionProvider()
      .add('throws', () => {
        throw new Error('sync boom');
      })
      .add('rejects', () => Promise.reject(new Error('async boom')))
      .add('bad_thenable', () => ({
        then() {
          throw new Error('thenable boom');
        },
      }))
      .add('fine', () => 'ok');
    const model = new ScriptedModelClient([
      {
        toolCalls: [
          { id: 'a', name: 'throws' },
          { id: 'b', name: 'rejects' },
          { id: 'c', name: 'bad_thenable' },
          { id: 'd', name: 'fine' },
        ],
      },
      { text: 'done' },
    ]);
    const result = await new LlmAgentRunner(model, provider).complete('go');
    expect(result.stopReason).toBe('end_turn');
    expect(
      result.toolCalls.slice(0, 3).map((c) => [failureOf(c.content).code, JSON.parse(c.content).error.message]),
    ).toEqual([
      ['tool_error', 'sync boom'],
      ['tool_error', 'async boom'],
      ['tool_error', 'thenable boom'],
    ]);
    expect(result.toolCalls[3].content).toBe('ok');
  });
});
