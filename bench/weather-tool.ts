/**
 * The weather tool and scripted conversation every runner and peer benchmark times: the tool's plain
 * async function, the same tool as a reflected `@Tool` class, its input schema as JSON Schema (for the
 * floor's precompiled ajv and the peers' tools), the model's call, the prompt and the final answer,
 * and the two runners the runner cases use.
 */
import { compileInputValidator, Field, LlmAgentRunner, ReflectedToolProvider, ScriptedModelClient, Tool } from '../lib';

/** The tool's arguments. */
export interface WeatherArgs {
  readonly city: string;
  readonly unit?: 'celsius' | 'fahrenheit';
}

/** What the tool answers. */
export interface WeatherResult {
  readonly city: string;
  readonly degrees: number;
}

/** The tool's input schema, as the reflected class produces it. */
export const weatherInputSchema = {
  type: 'object' as const,
  properties: { city: { type: 'string' as const }, unit: { type: 'string' as const, enum: ['celsius', 'fahrenheit'], default: 'celsius' } },
  required: ['city'],
  additionalProperties: false,
};

/** The tool's work, as a plain async function (an async function, as a real tool would be). */
export async function weatherAsync(args: WeatherArgs): Promise<WeatherResult> {
  return { city: args.city, degrees: 22 };
}

/**
 * The same tool as a reflected class. `invoke` hands back the promise of `weatherAsync`, the very
 * call the floor awaits: an `async invoke` around it would add a second promise layer that neither
 * the floor nor the peers' tools pay (their `execute` is `weatherAsync` itself).
 */
@Tool({ name: 'get_weather', description: 'Get the weather.' })
export class GetWeather {
  @Field({ description: 'City name.' }) city!: string;
  @Field({ description: 'Unit.', enum: ['celsius', 'fahrenheit'], default: 'celsius' }) unit?: 'celsius' | 'fahrenheit';
  invoke(): Promise<WeatherResult> {
    return weatherAsync(this);
  }
}

/** The model's tool call: id, tool name and arguments as JSON text. */
export const weatherCall = { id: 'call_1', name: 'get_weather', arguments: '{"city":"Tokyo"}' } as const;

/**
 * The floor every runner target is a ratio to, and the peers' reference: `JSON.parse` of the call's
 * arguments, a precompiled ajv validator, and the awaited call of the tool function.
 */
export function weatherFloor(): () => Promise<WeatherResult> {
  const validate = compileInputValidator(weatherInputSchema);
  return async () => {
    const args = JSON.parse(weatherCall.arguments) as WeatherArgs;
    if (validate(args).length > 0) throw new Error('invalid');
    return await weatherAsync(args);
  };
}

/** The model's final answer. */
export const answerText = 'It is 22 degrees in Tokyo.';

/** The prompt of every agent turn. */
export const prompt = "What's the weather in Tokyo?";

/** The scripted model's turns: the tool call, then the answer. */
export const weatherTurns = [{ toolCalls: [weatherCall] }, { text: answerText }];

/**
 * The runners of the runner cases, over one reflected provider: `runner` for `invokeToolCall` (its
 * model is never asked), `bound` for `complete()` on a model that repeats `weatherTurns` and keeps no requests.
 */
export function weatherRunners(): { readonly reflected: ReflectedToolProvider; readonly runner: LlmAgentRunner; readonly bound: LlmAgentRunner } {
  const reflected = new ReflectedToolProvider([GetWeather]);
  const runner = new LlmAgentRunner(new ScriptedModelClient([]), reflected);
  const bound = new LlmAgentRunner(new ScriptedModelClient(weatherTurns, { whenExhausted: 'repeat', recordRequests: false }), reflected);
  return { reflected, runner, bound };
}
