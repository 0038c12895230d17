import 'reflect-metadata';
import {
  Field,
  LlmAgentEvent,
  LlmAgentRunner,
  ReflectedToolProvider,
  ScriptedModelClient,
  Tool,
  ToolInvocation,
} from '../../lib';
import { RunInProgress } from '../../lib/runner';
import { FunctionProvider } from './support';

@Tool({ name: 'tag', description: 'Tags a city.' })
class TagCity {
  @Field({ description: 'City name.' }) city!: string;
  @Field({ description: 'Unit.', enum: ['celsius', 'fahrenheit'], default: 'celsius' }) unit?: string;
  @Field({ description: 'Tags.', type: () => [String], default: [] }) tags?: string[];
  invoke(): string {
    this.tags?.push('touched');
    return `${this.city}/${this.unit}/${this.tags?.length}`;
  }
}

const model = () => new ScriptedModelClient([{ text: 'unused' }]);

describe('per-call hot path', () => {
  it('an overridden emit sees every per-call event although the run has no onEvent', async () => {
    const seen: string[] = [];
    class Observing extends LlmAgentRunner {
      protected override emit(run: RunInProgress, event: LlmAgentEvent): void {
        seen.push(event.type);
        super.emit(run, event);
      }
    }
    const provider = new FunctionProvider().add('echo', () => 'ok');
    await new Observing(model(), provider).invokeToolCall({ id: 'c', name: 'echo', arguments: {} });
    expect(seen).toEqual([
      'run_started',
      'tool_call_started',
      'tool_attempt_started',
      'tool_call_finished',
      'run_finished',
    ]);
  });

  it('a reflected tool gets the arguments the runner validated, defaults applied, and cannot change the recorded ones', async () => {
    const runner = new LlmAgentRunner(model(), new ReflectedToolProvider([TagCity]));
    const flat = await runner.invokeToolCall({ id: 'a', name: 'tag', arguments: '{"city":"Oslo"}' });
    expect(flat.outcome.text).toBe('Oslo/celsius/1');
    const nested = await runner.invokeToolCall({ id: 'b', name: 'tag', arguments: '{"city":"Oslo","tags":["x"]}' });
    expect(nested.outcome.text).toBe('Oslo/celsius/2');
    expect(nested.arguments).toEqual({ city: 'Oslo', unit: 'celsius', tags: ['x'] });
  });

  it('arguments the runner never validated are validated by the reflected provider (an invocation cannot claim otherwise)', async () => {
    const provider = new ReflectedToolProvider([TagCity]);
    const descriptor = provider.listTools()[0];
    const forged = {
      toolName: 'tag',
      descriptor,
      arguments: { city: 42 },
      callId: 'x',
      attempt: 1,
      runId: 'r',
    } as unknown as ToolInvocation;
    const outcome = await provider.invokeTool(forged);
    expect(outcome.error?.code).toBe('invalid_arguments');
  });

  it('arguments validated against another schema object are validated again by the tool class', async () => {
    const provider = new ReflectedToolProvider([TagCity]);
    const own = provider.listTools()[0];
    const widened = {
      ...own,
      inputSchema: { type: 'object', properties: { city: {} }, required: ['city'], additionalProperties: true },
    };
    class Widening extends ReflectedToolProvider {
      override listTools() {
        return [widened];
      }
    }
    const runner = new LlmAgentRunner(model(), new Widening([TagCity]));
    const result = await runner.invokeToolCall({ id: 'w', name: 'tag', arguments: { city: 7 } });
    expect(result.outcome.error?.code).toBe('invalid_arguments');
  });
});

describe('per-call hot path under load', () => {
  it('still fires the deadline of a tool that ignores its signal while hundreds of other calls settle in the same turns', async () => {
    const provider = new FunctionProvider()
      .add('quick', async () => 'ok', { timeoutMs: 5_000 })
      .add('stuck', () => new Promise(() => undefined), { timeoutMs: 50 });
    const runner = new LlmAgentRunner(model(), provider);
    const stuck = runner.invokeToolCall({ id: 's', name: 'stuck', arguments: {} });
    const quick = Array.from({ length: 500 }, (_, index) =>
      runner.invokeToolCall({ id: `q${index}`, name: 'quick', arguments: {} }),
    );
    const results = await Promise.all(quick);
    expect(results.every((result) => result.outcome.ok)).toBe(true);
    expect((await stuck).outcome.error?.code).toBe('timeout');
  });

  it('validates the arguments of each of many interleaved calls, more than the runner keeps marks for', async () => {
    const runner = new LlmAgentRunner(model(), new ReflectedToolProvider([TagCity]), {
      allowToolCall: async () => ({ allowed: true }),
    });
    const cities = Array.from({ length: 12 }, (_, index) => `City${index}`);
    const results = await Promise.all(
      cities.map((city, index) =>
        runner.invokeToolCall({ id: `c${index}`, name: 'tag', arguments: JSON.stringify({ city }) }),
      ),
    );
    expect(results.map((result) => result.outcome.text)).toEqual(cities.map((city) => `${city}/celsius/1`));
    const bad = await Promise.all([
      runner.invokeToolCall({ id: 'b1', name: 'tag', arguments: '{"city":1}' }),
      runner.invokeToolCall({ id: 'b2', name: 'tag', arguments: '{}' }),
    ]);
    expect(bad.map((result) => result.outcome.error?.code)).toEqual(['invalid_arguments', 'invalid_arguments']);
  });

  it('checks an outcome a reflected tool returns itself, even right after converting a plain result', async () => {
    @Tool({ name: 'plain', description: 'Returns data.' })
    class Plain {
      invoke(): unknown {
        return { n: 1 };
      }
    }
    @Tool({ name: 'malformed', description: 'Returns a malformed outcome.' })
    class Malformed {
      invoke(): unknown {
        return { ok: true, data: { n: Number.NaN } };
      }
    }
    const runner = new LlmAgentRunner(model(), new ReflectedToolProvider([Plain, Malformed]));
    const [plain, malformed] = await Promise.all([
      runner.invokeToolCall({ id: 'p', name: 'plain', arguments: {} }),
      runner.invokeToolCall({ id: 'm', name: 'malformed', arguments: {} }),
    ]);
    expect(plain.outcome).toEqual({ ok: true, data: { n: 1 } });
    expect(malformed.outcome.error?.code).toBe('tool_error');
    expect(malformed.outcome).not.toHaveProperty('data');
    expect(malformed.content).toContain('malformed outcome');
  });
});
