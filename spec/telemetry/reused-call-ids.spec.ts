import 'reflect-metadata';
import { Contract, Field, LlmAgentRunner, ScriptedModelClient, Tool, ToolRegistry } from '../../lib';
import { TelemetryHarness, telemetryHarness } from './support';

@Tool({ description: 'Get the current weather for a city.' })
@Contract({ sideEffect: 'read', idempotency: 'idempotent' })
class GetWeather {
  @Field() city!: string;
  invoke(): string {
    return `${this.city} is 22 degrees.`;
  }
}

describe('wuwe/telemetry with a call id reused across turns', () => {
  let harness: TelemetryHarness;
  afterEach(async () => harness.shutdown());

  it('makes one execute_tool span per (turn, call id), each with its own outcome', async () => {
    harness = telemetryHarness({ agentName: 'weather' });
    const model = new ScriptedModelClient([
      { toolCalls: [{ id: 'call_0', name: 'GetWeather', arguments: { city: 'Oslo' } }] },
      { toolCalls: [{ id: 'call_0', name: 'GetWeather', arguments: { city: 'Rome' } }] },
      { text: 'done' },
    ]);
    const result = await new LlmAgentRunner(model, new ToolRegistry([GetWeather])).complete(
      'weather?',
      harness.telemetry.runOptions({}),
    );
    await Promise.resolve();
    expect(result.toolCalls.map((call) => call.turn)).toEqual([1, 2]);
    const tools = harness.spans().filter((span) => span.name === 'execute_tool GetWeather');
    expect(tools).toHaveLength(2);
    expect(tools.map((span) => span.attributes['gen_ai.tool.call.id'])).toEqual(['call_0', 'call_0']);
    expect(tools.map((span) => span.attributes['wuwe.tool.call.turn'])).toEqual([1, 2]);
    for (const span of tools) expect(span.ended).toBe(true);
  });
});
