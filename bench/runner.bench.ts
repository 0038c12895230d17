/**
 * Runner overhead, as ratios to a raw awaited call of the same tool function in the same run:
 * (a) one dispatch through the per-call path with every policy on (argument validation, deadline,
 * output validation, rendering and projection); (b) a full two-step `complete()` on ScriptedModelClient.
 */
import { descriptorFromLlmTool, LlmAgentRunner, ScriptedModelClient, ToolDescriptor, ToolInvocation, ToolProvider } from '../lib';
import { measure, report } from './measure';

const inputSchema = {
  type: 'object',
  properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'], default: 'celsius' } },
  required: ['city'],
  additionalProperties: false,
};
const outputSchema = { type: 'object', properties: { city: { type: 'string' }, degrees: { type: 'number' } }, required: ['city', 'degrees'], additionalProperties: false };

function weather(args: { city: string }): { city: string; degrees: number } {
  return { city: args.city, degrees: 22 };
}

class WeatherProvider implements ToolProvider {
  private readonly descriptor: ToolDescriptor = descriptorFromLlmTool(
    { name: 'get_weather', description: 'Get the weather.', inputSchema },
    { outputSchema, outputValidation: 'strict', timeoutMs: 5_000, sideEffect: 'read', idempotency: 'idempotent' },
  );
  listTools(): readonly ToolDescriptor[] {
    return [this.descriptor];
  }
  invokeTool(invocation: ToolInvocation): unknown {
    return weather(invocation.arguments as { city: string });
  }
}

export default async function runnerBench(): Promise<void> {
  const provider = new WeatherProvider();
  const runner = new LlmAgentRunner(new ScriptedModelClient([]), provider);
  const call = { id: 'call_1', name: 'get_weather', arguments: '{"city":"Tokyo"}' };
  const raw = await measure('raw awaited tool call', async () => weather(JSON.parse(call.arguments)));
  const dispatch = await measure('(a) runner per-call path, every policy on', () => runner.invokeToolCall(call, { runId: 'bench' }));
  const turns = [{ toolCalls: [call] }, { text: 'It is 22 degrees in Tokyo.' }];
  const model = new ScriptedModelClient(turns, { whenExhausted: 'repeat', recordRequests: false });
  const bound = new LlmAgentRunner(model, provider);
  const complete = await measure('(b) complete(): two-step run on ScriptedModelClient', () => bound.complete("What's the weather in Tokyo?"), 5_000);
  const bindAndComplete = await measure(
    '(b2) new runner (bindTools) + complete()',
    () => new LlmAgentRunner(new ScriptedModelClient(turns), provider).complete("What's the weather in Tokyo?"),
    5_000,
  );
  report(raw, [dispatch, complete, bindAndComplete]);
  console.log(`targets: (a) <= 5x, (b) <= 20x; measured (a) ${(dispatch.nsPerOp / raw.nsPerOp).toFixed(2)}x, (b) ${(complete.nsPerOp / raw.nsPerOp).toFixed(2)}x`);
}
