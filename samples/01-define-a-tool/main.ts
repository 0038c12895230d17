/**
 * The README example, runnable offline: define the weather tool, show what the model sees, call
 * it with the arguments a model would send, show a call refused for bad arguments, then run
 * `bindTools(GetWeather).complete(...)` on the scripted model (a real one when the environment names
 * one: see demo-model.ts).
 *
 * Run: `npx ts-node --transpile-only samples/01-define-a-tool/main.ts`
 */
import 'reflect-metadata';
import { Field, LlmAgentRunResult, ModelClient, ScriptedModelClient, Tool, ToolOutcome } from '../../lib';
import type { LlmTool } from '../../lib';
import { invokeReflectedTool, makeLlmTool } from '../../lib/tools';
import { demoModel } from '../demo-model';

export enum TemperatureUnit {
  Celsius = 'celsius',
  Fahrenheit = 'fahrenheit',
}

@Tool({ description: 'Get the current weather for a city.' })
export class GetWeather {
  @Field({ description: 'City name.' })
  city!: string;

  @Field({ enum: TemperatureUnit, default: TemperatureUnit.Celsius, description: 'Preferred temperature unit.' })
  unit!: TemperatureUnit;

  invoke(): string {
    return `${this.city} is 22 degrees.`;
  }
}

/** What the sample printed, in order. */
export interface WeatherSampleOutput {
  /** The tool as the model sees it. */
  readonly tool: LlmTool;
  /** The outcome of `{"city":"Tokyo"}`. */
  readonly tokyo: ToolOutcome;
  /** The outcome of arguments the schema refuses: the model gets every issue back. */
  readonly refused: ToolOutcome;
  /** The result of `runner.complete("What's the weather in Tokyo?")`. */
  readonly run: LlmAgentRunResult;
  /** Every printed line. */
  readonly lines: readonly string[];
}

/**
 * The model of the sample: the one the environment names (see {@link demoModel}), else a scripted model answering like
 * one.
 */
export function weatherModel(): ModelClient {
  return demoModel(scriptedWeatherModel).model;
}

/** The offline model of the sample: one tool call, then an answer quoting the tool. */
export function scriptedWeatherModel(): ModelClient {
  return new ScriptedModelClient([
    { toolCalls: [{ name: 'GetWeather', arguments: '{"city":"Tokyo"}' }] },
    (messages) => {
      const last = messages[messages.length - 1];
      return { text: last.role === 'tool' ? `According to the tool: ${last.content}` : 'I could not get the weather.' };
    },
  ]);
}

/** Runs the sample and returns what it printed. */
export async function main(print: (line: string) => void = console.log): Promise<WeatherSampleOutput> {
  const lines: string[] = [];
  const say = (line: string): void => {
    lines.push(line);
    print(line);
  };

  const tool = makeLlmTool(GetWeather);
  say(`tool: ${JSON.stringify(tool, null, 2)}`);

  const tokyo = await invokeReflectedTool(GetWeather, '{"city":"Tokyo"}');
  say(`GetWeather {"city":"Tokyo"} -> ${JSON.stringify(tokyo)}`);

  const badArguments = '{"unit":"kelvin","country":"JP"}';
  const refused = await invokeReflectedTool(GetWeather, badArguments);
  say(`GetWeather ${badArguments} -> ${JSON.stringify(refused)}`);

  const runner = weatherModel().bindTools(GetWeather);
  const run = await runner.complete("What's the weather in Tokyo?");
  say(
    `runner.complete("What's the weather in Tokyo?") -> ${run.text} (stop: ${run.stopReason}, ${run.toolCalls.length} tool call)`,
  );

  return { tool, tokyo, refused, run, lines };
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
