/**
 * What a README example marked `<!-- fragment: name -->` continues: the earlier examples' tool classes, model,
 * runner or store, written out. The prelude of the named wrapper is placed before the block; names of the
 * package root that either mentions are imported from 'wuwe' (see `blockProgram`). A wrapper with
 * `run: false` is only compiled (it stands for infrastructure a test run does not start, e.g. a worker fleet).
 */
export interface ReadmeWrapper {
  readonly prelude: string;
  readonly run: boolean;
}

/** The first example's tool. */
const WEATHER_TOOL = `
enum TemperatureUnit { Celsius = 'celsius', Fahrenheit = 'fahrenheit' }

@Tool({ description: 'Get the current weather for a city.' })
class GetWeather {
  @Field({ description: 'City name.' })
  city!: string;

  @Field({ enum: TemperatureUnit, default: TemperatureUnit.Celsius, description: 'Preferred temperature unit.' })
  unit!: TemperatureUnit;

  invoke(): string {
    return \`\${this.city} is 22 degrees.\`;
  }
}
`;

/** A scripted model that asks for the weather in Tokyo, then answers; past its script it ends the turn. */
const SCRIPTED_MODEL = `
const model = new ScriptedModelClient(
  [{ toolCalls: [{ name: 'GetWeather', arguments: '{"city":"Tokyo"}' }] }, { text: 'Tokyo is 22 degrees.' }],
  { whenExhausted: 'end_turn' },
);
`;

/** The operator of the approval examples: approves everything. */
const OPERATOR = `
async function askOperator(toolName: string, args: unknown): Promise<boolean> {
  console.log('approve?', toolName, JSON.stringify(args));
  return true;
}
`;

/** A refund that always needs approval. */
const REFUND_TOOL = `
@Tool({ description: 'Refund an order.' })
@Contract({ sideEffect: 'destructive', approval: 'always' })
class RefundOrder {
  @Field({ description: 'Order id.' })
  orderId!: string;

  invoke(): string {
    return \`order \${this.orderId} refunded\`;
  }
}
`;

/** The wrappers named by the README's fragments. */
export const README_WRAPPERS: Readonly<Record<string, ReadmeWrapper>> = {
  'weather-tool': { prelude: WEATHER_TOOL, run: true },
  'scripted-model': { prelude: SCRIPTED_MODEL, run: true },
  'weather-runner': {
    prelude: `${WEATHER_TOOL}${SCRIPTED_MODEL}${OPERATOR}const runner = model.bindTools(GetWeather);\n`,
    run: true,
  },
  'contract-tools': {
    prelude: `${WEATHER_TOOL}${SCRIPTED_MODEL}
@Tool({ description: 'Set a configuration value.' })
@Contract({ sideEffect: 'write', idempotency: 'idempotent', retry: { maxAttempts: 3 }, timeoutMs: 5_000 })
class UpdateSetting {
  @Field() key!: string;
  @Field() value!: string;
  invoke() { return { key: this.key, value: this.value }; }
}
`,
    run: true,
  },
  'typed-calls': {
    prelude: `
import { z } from 'zod';

const forecast = defineTool({
  name: 'forecast',
  description: 'Weather for a city.',
  input: z.object({ city: z.string().min(1), days: z.number().int().default(1) }),
  invoke: ({ city, days }) => \`\${city}: sunny for \${days} days\`,
});
const model = new ScriptedModelClient(
  [{ toolCalls: [{ name: 'get_weather', arguments: '{"city":"Oslo"}' }, { name: 'forecast', arguments: '{"city":"Oslo"}' }] }, { text: 'Mild.' }],
  { whenExhausted: 'end_turn' },
);
`,
    run: true,
  },
  'durable-runner': {
    prelude: `${WEATHER_TOOL}${SCRIPTED_MODEL}const runner = model.bindTools(GetWeather);\nconst store = new MemoryRunStore();\n`,
    run: true,
  },
  'refund-tools': {
    prelude: `${WEATHER_TOOL}${REFUND_TOOL}
const model = new ScriptedModelClient([{ toolCalls: [{ name: 'RefundOrder', arguments: '{"orderId":"42"}' }] }], { whenExhausted: 'end_turn' });
`,
    run: true,
  },
  'awaiting-approval': {
    prelude: `${REFUND_TOOL}
const model = new ScriptedModelClient(
  [{ toolCalls: [{ name: 'RefundOrder', arguments: '{"orderId":"42"}' }] }, { text: 'Refunded.' }],
  { whenExhausted: 'end_turn' },
);
const runner = model.bindTools(RefundOrder);
const store = new MemoryRunStore();
const { runId, stopReason } = await runner.complete('Refund order 42', { store });
if (stopReason !== 'awaiting_approval') throw new Error(\`expected a run awaiting approval, got \${stopReason}\`);
`,
    run: true,
  },
  'structured-runner': {
    prelude: `${WEATHER_TOOL}
const model = new ScriptedModelClient([{ toolCalls: [{ name: 'final_answer', arguments: '{"city":"Paris","degrees":18}' }] }]);
const runner = model.bindTools(GetWeather);
`,
    run: true,
  },
  queue: {
    prelude: `
declare const url: string; // the PostgreSQL database of the store and the queue
declare const runner: LlmAgentRunner; // the agent's runner, e.g. model.bindTools(...)
`,
    run: false,
  },
  nest: {
    prelude: `
import * as nest from '@nestjs/common';

@nest.Injectable()
class WeatherService {
  temperatureOf(city: string): number { return city.length; }
}

@nest.Module({ providers: [WeatherService], exports: [WeatherService] })
class WeatherModule {}

@nest.Controller('agent')
class AgentController {
  constructor(@nest.Inject(LlmAgentRunner) readonly runner: LlmAgentRunner) {}
}
`,
    run: true,
  },
};
