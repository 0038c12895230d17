/**
 * Per-call cost of the argument path on the README weather tool, as ratios to baselines measured
 * in the same run:
 *
 * - (a) `JSON.parse` + a direct call of the invoke logic on the plain object (no checks at all);
 * - (b) `JSON.parse` + a precompiled ajv validator of the same schema + the direct call (the target:
 *   `parseToolArguments` + `invoke()` at most 2x this);
 * - for reference, `plainToInstance` + class-validator's `validate`.
 *
 * Every case goes through the same harness (`measure`, which awaits each call), so the fixed cost
 * of one `await` is in every figure, baselines included.
 */
import 'reflect-metadata';
import Ajv from 'ajv';
import { plainToInstance } from 'class-transformer';
import { IsEnum, IsOptional, IsString, validate } from 'class-validator';
import { invokeReflectedTool, makeLlmTool } from '../lib/tools';
import { parseToolArguments } from '../lib';
import { GetWeather, TemperatureUnit } from '../samples/01-define-a-tool/main';
import { measure, Measurement, report } from './measure';

const ARGUMENTS = '{"city":"Tokyo","unit":"fahrenheit"}';
const ARGUMENTS_WITH_DEFAULT = '{"city":"Tokyo"}';

/** The same tool for class-validator, as a user of class-validator alone would write it. */
class ClassValidatorWeather {
  @IsString() city!: string;
  @IsOptional() @IsEnum(TemperatureUnit) unit: TemperatureUnit = TemperatureUnit.Celsius;

  invoke(): string {
    return `${this.city} is 22 degrees.`;
  }
}

interface WeatherArguments {
  city: string;
  unit?: TemperatureUnit;
}

/** The invoke logic of the weather tool, called directly on a plain object. */
function weatherLogic(args: WeatherArguments): string {
  return `${args.city} is 22 degrees.`;
}

let sink: unknown;

const ROUNDS = 21;
const ITERATIONS = 10_000;

/**
 * Measures the cases round by round (each round times every case once) and keeps each case's
 * median, so a busy machine slows all cases alike instead of whichever ran at the wrong moment.
 */
async function measureInterleaved(cases: ReadonlyArray<readonly [string, () => unknown]>): Promise<Measurement[]> {
  const samples = cases.map((): number[] => []);
  for (let round = 0; round < ROUNDS; round++)
    for (const [index, [name, fn]] of cases.entries())
      samples[index].push((await measure(name, fn, ITERATIONS, 1)).nsPerOp);
  return cases.map(([name], index) => {
    const sorted = samples[index].sort((a, b) => a - b);
    return { name, nsPerOp: sorted[Math.floor(sorted.length / 2)] };
  });
}

export default async function foundationBench(): Promise<void> {
  const schema = makeLlmTool(GetWeather).inputSchema;
  const ajv = new Ajv({ strict: true, allErrors: true, useDefaults: true, coerceTypes: false });
  const validateWeather = ajv.compile<WeatherArguments>(schema as object);

  const plainCall = (text: string) => (): void => {
    sink = weatherLogic(JSON.parse(text) as WeatherArguments);
  };
  const ajvCall = (text: string) => (): void => {
    const args = JSON.parse(text) as unknown;
    if (!validateWeather(args)) throw new Error('baseline refused valid arguments');
    sink = weatherLogic(args);
  };
  const parseAndInvoke = (text: string) => (): void => {
    sink = parseToolArguments(GetWeather, text).invoke();
  };
  const reflected = (text: string) => async (): Promise<void> => {
    const outcome = await invokeReflectedTool(GetWeather, text);
    if (!outcome.ok) throw new Error('invokeReflectedTool refused valid arguments');
    sink = outcome;
  };
  const classValidator = (text: string) => async (): Promise<void> => {
    const instance = plainToInstance(ClassValidatorWeather, JSON.parse(text) as object);
    const errors = await validate(instance, { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true });
    if (errors.length > 0) throw new Error('class-validator refused valid arguments');
    sink = instance.invoke();
  };

  for (const [label, text] of [
    ['all arguments given', ARGUMENTS],
    ['default applied', ARGUMENTS_WITH_DEFAULT],
  ] as const) {
    console.log(`\nweather tool, ${label}: ${text} (ratios to (b) JSON.parse + ajv + direct call)`);
    const [baseline, plain, parsed, invoked, validated] = await measureInterleaved([
      ['(b) JSON.parse + ajv + direct call', ajvCall(text)],
      ['(a) JSON.parse + direct call', plainCall(text)],
      ['parseToolArguments + invoke()', parseAndInvoke(text)],
      ['invokeReflectedTool', reflected(text)],
      ['plainToInstance + class-validator validate', classValidator(text)],
    ]);
    report(baseline, [plain, parsed, invoked, validated]);
    const ratio = parsed.nsPerOp / baseline.nsPerOp;
    console.log(
      `parseToolArguments + invoke(): ${ratio.toFixed(2)}x the ajv baseline (target <= 2x): ${ratio <= 2 ? 'met' : 'NOT met'}`,
    );
  }
  if (sink === undefined) throw new Error('nothing ran');
}
