import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeLlmTool } from '../../lib/tools';
import { parseToolArguments, toolDescriptorOf, ToolDefinitionError } from '../../lib';
import { esbuild, swc, tsc, Toolchain } from './toolchains';

const TOOLCHAINS: readonly Toolchain[] = [
  { name: 'tsc, legacy decorators with emitDecoratorMetadata', emitsDesignType: true, compile: tsc(true) },
  { name: 'tsc, standard decorators', emitsDesignType: false, compile: tsc(false) },
  { name: 'esbuild, legacy decorators', emitsDesignType: false, compile: esbuild(true) },
  { name: 'esbuild, standard decorators', emitsDesignType: false, compile: esbuild(false) },
  {
    name: 'swc, legacy decorators with decoratorMetadata',
    emitsDesignType: true,
    compile: swc('legacy with metadata'),
  },
  { name: 'swc, legacy decorators without decoratorMetadata', emitsDesignType: false, compile: swc('legacy') },
  { name: 'swc, standard decorators (2023-11)', emitsDesignType: false, compile: swc('standard') },
];

let directory: string;

beforeAll(() => {
  directory = fs.mkdtempSync(path.join(os.tmpdir(), 'wuwe-toolchains-'));
});

afterAll(() => fs.rmSync(directory, { recursive: true, force: true }));

/** Compiles a fixture with a toolchain into the temporary directory and loads it (`wuwe` resolves to the sources). */
function load(toolchain: Toolchain, fixture: string): Record<string, Function> {
  const fileName = path.join(__dirname, 'fixtures', fixture);
  const output = path.join(directory, `${TOOLCHAINS.indexOf(toolchain)}-${fixture.replace(/\.ts$/, '.js')}`);
  fs.writeFileSync(output, toolchain.compile(fs.readFileSync(fileName, 'utf8'), fileName));
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(output) as Record<string, Function>;
}

describe('the same tool classes on every toolchain', () => {
  const reference = (): Record<string, Function> => load(TOOLCHAINS[0], 'explicit-tools.ts');

  it.each(TOOLCHAINS.map((toolchain) => [toolchain.name, toolchain] as const))(
    '%s: explicit types give the tsc schema and contract',
    (_name, toolchain) => {
      const expected = reference();
      const loaded = load(toolchain, 'explicit-tools.ts');
      expect(makeLlmTool(loaded.PlanTrip)).toEqual(makeLlmTool(expected.PlanTrip));
      expect(toolDescriptorOf(loaded.PlanTrip)).toEqual(toolDescriptorOf(expected.PlanTrip));
      const schema = makeLlmTool(loaded.PlanTrip).inputSchema as any;
      expect(schema.properties.units).toEqual({
        type: 'array',
        items: { type: 'string', enum: ['celsius', 'fahrenheit'] },
      });
      expect(schema.properties.days).toEqual({ type: 'number', default: 3 });
      expect(schema.required).toEqual(['nights', 'units', 'mode', 'tags', 'home', 'stops']);

      const trip = parseToolArguments(
        loaded.PlanTrip as new () => { home: object; stops: object[]; days: number; invoke(): string },
        {
          nights: 2,
          units: ['celsius'],
          mode: 'fast',
          tags: [],
          home: { street: 'Main 1' },
          stops: [{ street: 'Side 2', zip: '0150' }],
        },
      );
      expect(trip.home).toBeInstanceOf(loaded.Address);
      expect(trip.stops[0]).toBeInstanceOf(loaded.Address);
      expect(trip.invoke()).toBe('2 nights from Main 1, 3 days');
      expect(() =>
        parseToolArguments(loaded.PlanTrip as new () => object, {
          nights: 2,
          units: 'celsius',
          mode: 'turbo',
          tags: [],
          home: {},
          stops: [],
        }),
      ).toThrow(/units: must be array.*mode: must be equal to one of the allowed values/);
    },
  );

  it.each(TOOLCHAINS.map((toolchain) => [toolchain.name, toolchain] as const))(
    '%s: a field left to design:type reflects only where the compiler emits it',
    (_name, toolchain) => {
      const loaded = load(toolchain, 'reflected-tools.ts');
      if (toolchain.emitsDesignType) {
        expect((makeLlmTool(loaded.GetWeather).inputSchema as any).properties.city).toEqual({ type: 'string' });
        return;
      }
      let caught: unknown;
      try {
        makeLlmTool(loaded.GetWeather);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(ToolDefinitionError);
      expect(caught).toMatchObject({ code: 'missing_design_type', className: 'GetWeather', propertyName: 'city' });
      expect((caught as Error).message).toMatch(/emitted no design:type.*type: String.*emitDecoratorMetadata/);
    },
  );
});
