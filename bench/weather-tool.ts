/**
 * The weather tool and scripted conversation every runner and peer benchmark times: the tool's plain
 * async function, the same tool as a reflected `@Tool` class, its input schema as JSON Schema (for the
 * floor's precompiled ajv and the peers' tools), the model's call, the prompt and the final answer,
 * and the two runners the runner cases use.
 */
import { compileInputValidator } from '../lib/validation';
import { fallbackTextTokenEstimator } from '../lib/projection';
import { Field, LlmAgentRunner, ReflectedToolProvider, ScriptedModelClient, Tool } from '../lib';
import { toToolOutcome, tryParseToolArguments } from '../lib/tools';

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
  properties: {
    city: { type: 'string' as const },
    unit: { type: 'string' as const, enum: ['celsius', 'fahrenheit'], default: 'celsius' },
  },
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

/**
 * The least work one call under the default contract does, written by hand from the library's public
 * parts with no runner around them: the call's start read on the clock, the arguments guarded,
 * validated and turned into a `GetWeather` instance with its defaults (`tryParseToolArguments`), the
 * deadline taken from a clock read before the awaited `invoke` and checked on the clock after it, the
 * result made an outcome from a copy (`toToolOutcome`), rendered as the Tool message (`JSON.stringify`),
 * its bytes and tokens measured for the projection report, and the result record with the call's
 * duration: four clock reads, as the runner takes per call. It leaves out all the
 * runner adds beyond that: the steps a subclass can override, the gates (approval, policy, capabilities,
 * precondition), a deadline that fires for a tool that never settles (a timer, or the sweep that arms
 * one), cancellation through the run's signal, events, and the run itself. So it is a bound from below
 * of `runner.invokeToolCall`, not a peer: what a call of this tool costs before any framework.
 */
export function weatherMinimum(): () => Promise<unknown> {
  return async () => {
    const call = weatherCall;
    const startedAt = Date.now();
    const parsed = tryParseToolArguments(GetWeather, call.arguments);
    if (!parsed.ok) throw parsed.error;
    const deadlineAtMs = Date.now() + 60_000;
    const value = await parsed.value.invoke();
    const outcome = Date.now() > deadlineAtMs ? undefined : toToolOutcome(value);
    if (outcome === undefined || !outcome.ok) throw new Error('the tool failed');
    const content = JSON.stringify(outcome.data);
    const bytes = Buffer.byteLength(content, 'utf8');
    const tokens = fallbackTextTokenEstimator.estimateTokens(content);
    const projection = {
      truncated: false,
      originalBytes: bytes,
      originalTokens: tokens,
      projectedBytes: bytes,
      projectedTokens: tokens,
      trigger: null,
    };
    return {
      callId: call.id,
      toolName: call.name,
      arguments: parsed.value,
      outcome,
      attempts: 1,
      content,
      projection,
      durationMs: Date.now() - startedAt,
    };
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
export function weatherRunners(): {
  readonly reflected: ReflectedToolProvider;
  readonly runner: LlmAgentRunner;
  readonly bound: LlmAgentRunner;
} {
  const reflected = new ReflectedToolProvider([GetWeather]);
  const runner = new LlmAgentRunner(new ScriptedModelClient([]), reflected);
  const bound = new LlmAgentRunner(
    new ScriptedModelClient(weatherTurns, { whenExhausted: 'repeat', recordRequests: false }),
    reflected,
  );
  return { reflected, runner, bound };
}
