/**
 * `parseToolArguments` + `invoke()` for the three ways to define a tool, each as a ratio to
 * "JSON.parse + a precompiled ajv validator of the same schema + a direct call" measured in the
 * same run (the target: at most 2x):
 *
 * - a class with legacy decorators and `design:type` (tsc, ts-node);
 * - the same class with TC39 standard decorators and explicit types, compiled here by tsc 5.9 and,
 *   for reference, by esbuild (whose lowered field initializers make `new Class()` itself several
 *   times slower than a plain class: a cost of that output, not of wuwe) and by swc (2023-11);
 * - `defineTool` with a zod 4 schema (ajv on the exported JSON Schema, then zod's own `validate`
 *   runs inside `invoke()`, so it is measured through `invokeReflectedTool` too).
 */
import 'reflect-metadata';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Ajv from 'ajv';
import { transformSync as swcTransformSync } from '@swc/core';
import { transformSync } from 'esbuild';
import ts from 'typescript';
import { z } from 'zod';
import { defineTool, Field, parseToolArguments, Tool } from '../lib';
import { invokeReflectedTool, makeLlmTool } from '../lib/tools';
import { measure, Measurement, report } from './measure';

const ARGUMENTS = '{"city":"Tokyo","unit":"fahrenheit"}';

@Tool({ name: 'weather', description: 'Weather for a city.' })
class LegacyWeather {
  @Field() city!: string;
  @Field({ enum: ['celsius', 'fahrenheit'], default: 'celsius' }) unit!: 'celsius' | 'fahrenheit';
  invoke(): string {
    return `${this.city} is 22 degrees.`;
  }
}

const STANDARD_SOURCE = `
import { Field, Tool } from ${JSON.stringify(path.join(__dirname, '../lib'))};
@Tool({ name: 'weather', description: 'Weather for a city.' })
export class StandardWeather {
  @Field({ type: String }) city!: string;
  @Field({ enum: ['celsius', 'fahrenheit'], array: false, default: 'celsius' }) unit!: 'celsius' | 'fahrenheit';
  invoke(): string {
    return this.city + ' is 22 degrees.';
  }
}
`;

/** The standard-decorator class, compiled by tsc, esbuild or swc into a temporary file and loaded. */
function standardWeather(compiler: 'tsc' | 'esbuild' | 'swc'): new () => { invoke(): string } {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'wuwe-bench-'));
  const file = path.join(directory, 'standard-weather.js');
  const code =
    compiler === 'tsc'
      ? ts.transpileModule(STANDARD_SOURCE, {
          compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
        }).outputText
      : compiler === 'esbuild'
        ? transformSync(STANDARD_SOURCE, {
            loader: 'ts',
            format: 'cjs',
            target: 'es2022',
            tsconfigRaw: { compilerOptions: {} },
          }).code
        : swcTransformSync(STANDARD_SOURCE, {
            swcrc: false,
            configFile: false,
            module: { type: 'commonjs' },
            jsc: {
              target: 'es2022',
              parser: { syntax: 'typescript', decorators: true },
              transform: { decoratorVersion: '2023-11' },
            },
          }).code;
  fs.writeFileSync(file, code);
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return (require(file) as { StandardWeather: new () => { invoke(): string } }).StandardWeather;
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
  }
}

const definedWeather = defineTool({
  name: 'weather',
  description: 'Weather for a city.',
  input: z.object({ city: z.string(), unit: z.enum(['celsius', 'fahrenheit']).default('celsius') }),
  invoke: ({ city }) => `${city} is 22 degrees.`,
});

let sink: unknown;
const ROUNDS = 15;
const ITERATIONS = 10_000;

/** Each round times every case once; each case keeps its median, so machine noise hits all alike. */
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

/** JSON.parse + ajv precompiled on the tool's own schema + the invoke logic called directly. */
function ajvBaseline(target: Function): () => void {
  const validate = new Ajv({ strict: true, allErrors: true, useDefaults: true, coerceTypes: false }).compile(
    makeLlmTool(target).inputSchema as object,
  );
  return () => {
    const args = JSON.parse(ARGUMENTS) as { city: string };
    if (!validate(args)) throw new Error('baseline refused valid arguments');
    sink = `${args.city} is 22 degrees.`;
  };
}

export default async function decoratorKindsBench(): Promise<void> {
  const StandardWeather = standardWeather('tsc');
  const EsbuildWeather = standardWeather('esbuild');
  const SwcWeather = standardWeather('swc');
  const kinds: ReadonlyArray<readonly [string, Function, () => unknown]> = [
    ['legacy decorators', LegacyWeather, () => (sink = parseToolArguments(LegacyWeather, ARGUMENTS).invoke())],
    [
      'standard decorators (tsc)',
      StandardWeather,
      () => (sink = parseToolArguments(StandardWeather, ARGUMENTS).invoke()),
    ],
    [
      'standard decorators (esbuild output, reference)',
      EsbuildWeather,
      () => (sink = parseToolArguments(EsbuildWeather, ARGUMENTS).invoke()),
    ],
    [
      'standard decorators (swc output, reference)',
      SwcWeather,
      () => (sink = parseToolArguments(SwcWeather, ARGUMENTS).invoke()),
    ],
    ['defineTool (zod 4)', definedWeather, () => (sink = parseToolArguments(definedWeather, ARGUMENTS).args)],
  ];
  for (const [label, target, parse] of kinds) {
    console.log(`\n${label}: ${ARGUMENTS} (ratios to JSON.parse + ajv + direct call)`);
    const cases: [string, () => unknown][] = [
      ['JSON.parse + ajv + direct call', ajvBaseline(target)],
      ['parseToolArguments + invoke()', parse],
    ];
    if (target === definedWeather)
      cases.push([
        'invokeReflectedTool (adds zod validate)',
        async () => {
          sink = await invokeReflectedTool(definedWeather, ARGUMENTS);
        },
      ]);
    const [baseline, ...others] = await measureInterleaved(cases);
    report(baseline, others);
    const ratio = others[0].nsPerOp / baseline.nsPerOp;
    console.log(
      `${label}: parseToolArguments ${ratio.toFixed(2)}x the ajv baseline (target <= 2x): ${ratio <= 2 ? 'met' : 'NOT met'}`,
    );
  }
  if (sink === undefined) throw new Error('nothing ran');
}
