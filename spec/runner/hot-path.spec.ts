import 'reflect-metadata';
import { Field, LlmAgentEvent, LlmAgentRunner, ReflectedToolProvider, RunState, ScriptedModelClient, Tool, ToolInvocation } from '../../lib';
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
      protected override emit(run: RunState, event: LlmAgentEvent): void {
        seen.push(event.type);
        super.emit(run, event);
      }
    }
    const provider = new FunctionProvider().add('echo', () => 'ok');
    await new Observing(model(), provider).invokeToolCall({ id: 'c', name: 'echo', arguments: {} });
    expect(seen).toEqual(['run_started', 'tool_call_started', 'tool_attempt_started', 'tool_call_finished']);
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
    const forged = { toolName: 'tag', descriptor, arguments: { city: 42 }, callId: 'x', attempt: 1, runId: 'r' } as unknown as ToolInvocation;
    const outcome = await provider.invokeTool(forged);
    expect(outcome.error?.code).toBe('invalid_arguments');
  });

  it('arguments validated against another schema object are validated again by the tool class', async () => {
    const provider = new ReflectedToolProvider([TagCity]);
    const own = provider.listTools()[0];
    const widened = { ...own, inputSchema: { type: 'object', properties: { city: {} }, required: ['city'], additionalProperties: true } };
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
