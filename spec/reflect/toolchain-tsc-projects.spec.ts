import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

jest.setTimeout(300_000);

const ROOT = path.join(__dirname, '../..');
const TSC = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

/** Runs a command; on failure the error carries its output. */
function run(command: string, args: readonly string[], cwd: string): string {
  try {
    return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: 'pipe', maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${failed.stdout ?? ''}${failed.stderr ?? ''}`, {
      cause: error,
    });
  }
}

/** Valid tool code in any of the projects: a `?` says `optional`, a literal union lists its values. */
const VALID_TS = `
import 'reflect-metadata';
import { Field, parseToolArguments, Tool } from 'wuwe';
import { makeLlmTool } from 'wuwe/tools';

@Tool({ name: 'get_weather', description: 'Weather for a city.' })
export class GetWeather {
  @Field() city!: string;
  @Field({ optional: true }) country?: string;
  @Field({ enum: ['celsius', 'fahrenheit'] }) units!: 'celsius' | 'fahrenheit';
  @Field({ optional: true, enum: ['fast', 'slow'] }) pace?: 'fast' | 'slow';
  @Field({ type: 'integer', default: 3 }) days!: number;
  @Field({ type: () => [String], default: [] }) tags!: string[];

  invoke(): string {
    return this.city + ' in ' + this.units + ' for ' + this.days + ' days';
  }
}

const tool = parseToolArguments(GetWeather, { city: 'Oslo', units: 'celsius' });
process.stdout.write(JSON.stringify({ schema: makeLlmTool(GetWeather).inputSchema, answer: tool.invoke() }));
`;

/** What the guard refuses wherever it can tell: a \`?\` without \`optional\`, literal unions without \`enum\`. */
const GUARDED_TS = `
import { Field } from 'wuwe';

export class Unchecked {
  // @ts-expect-error: \`?\` is invisible to design:type; the field would be required
  @Field() note?: string;
  // @ts-expect-error: a literal union would be reflected as a plain string
  @Field() mode!: 'fast' | 'slow';
  // @ts-expect-error: an optional literal union too
  @Field({ optional: true }) pace?: 'fast' | 'slow';
  // @ts-expect-error: an array of a literal union too
  @Field({ type: [String] }) modes!: ('fast' | 'slow')[];
}
`;

/** Only with strictNullChecks can the compiler see that a property declared without \`?\` may be undefined. */
const STRICT_ONLY_TS = `
import { Field } from 'wuwe';

export class MaybeUndefined {
  // @ts-expect-error: it may be undefined: say optional
  @Field({ type: String }) note!: string | undefined;
}
`;

/** Code of a project without strictNullChecks: fields without \`!\`, \`| undefined\` that the compiler erases. */
const LOOSE_TS = `
import { Field, Tool } from 'wuwe';
import { makeLlmTool } from 'wuwe/tools';

@Tool({ name: 'loose', description: 'Written as non-strict code is.' })
export class Loose {
  @Field() city: string;
  @Field({ type: String }) note: string | undefined;
  @Field({ optional: true }) country?: string;

  invoke(): string {
    return this.city;
  }
}

export const looseSchema = makeLlmTool(Loose).inputSchema;
`;

/** A project: its tsconfig's compiler options and the files it compiles besides the valid tool. */
interface Project {
  readonly name: string;
  readonly compilerOptions: Record<string, unknown>;
  readonly strictNullChecks: boolean;
}

const PROJECTS: readonly Project[] = [
  {
    name: 'strict (the README tsconfig)',
    strictNullChecks: true,
    compilerOptions: {
      target: 'ES2022',
      module: 'node16',
      strict: true,
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
    },
  },
  {
    name: 'strict with exactOptionalPropertyTypes',
    strictNullChecks: true,
    compilerOptions: {
      target: 'ES2022',
      module: 'commonjs',
      strict: true,
      exactOptionalPropertyTypes: true,
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
    },
  },
  {
    name: 'non-strict (strict: false), without skipLibCheck',
    strictNullChecks: false,
    compilerOptions: {
      target: 'ES2022',
      module: 'commonjs',
      strict: false,
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
      esModuleInterop: true,
    },
  },
  {
    // The tsconfig.json of `nest new` (@nestjs/schematics 11, application template).
    name: 'the NestJS default (nest new) tsconfig',
    strictNullChecks: false,
    compilerOptions: {
      module: 'commonjs',
      declaration: true,
      removeComments: true,
      emitDecoratorMetadata: true,
      experimentalDecorators: true,
      allowSyntheticDefaultImports: true,
      target: 'ES2023',
      sourceMap: true,
      outDir: './dist',
      baseUrl: './',
      incremental: true,
      skipLibCheck: true,
      strictNullChecks: false,
      noImplicitAny: false,
      strictBindCallApply: false,
      noFallthroughCasesInSwitch: false,
    },
  },
];

let work: string;

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'wuwe-tsc-projects-'));
  // The package as published: dist/ built by tsconfig.build.json, resolved through its exports.
  const packageDir = path.join(work, 'package');
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    exports: unknown;
    typesVersions: unknown;
  };
  run(
    process.execPath,
    [TSC, '-p', path.join(ROOT, 'tsconfig.build.json'), '--outDir', path.join(packageDir, 'dist')],
    ROOT,
  );
  fs.writeFileSync(
    path.join(packageDir, 'package.json'),
    JSON.stringify({
      name: 'wuwe',
      version: '0.0.0',
      main: 'dist/index.js',
      types: 'dist/index.d.ts',
      exports: manifest.exports,
      typesVersions: manifest.typesVersions,
    }),
  );
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(packageDir, 'node_modules'), 'dir');
});

afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** Writes a consumer project using the package and its sources, compiles it with tsc, and answers what tsc printed. */
function compileProject(project: Project, files: Readonly<Record<string, string>>): { readonly directory: string } {
  const directory = path.join(work, `project-${PROJECTS.indexOf(project)}`);
  const modules = path.join(directory, 'node_modules');
  fs.mkdirSync(path.join(modules, '@types'), { recursive: true });
  fs.symlinkSync(path.join(work, 'package'), path.join(modules, 'wuwe'), 'dir');
  fs.symlinkSync(path.join(ROOT, 'node_modules', 'reflect-metadata'), path.join(modules, 'reflect-metadata'), 'dir');
  fs.symlinkSync(path.join(ROOT, 'node_modules', '@types', 'node'), path.join(modules, '@types', 'node'), 'dir');
  fs.writeFileSync(
    path.join(directory, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'commonjs' }),
  );
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(directory, name), text);
  fs.writeFileSync(
    path.join(directory, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { ...project.compilerOptions, outDir: './dist', rootDir: '.' },
      include: Object.keys(files),
    }),
  );
  run(process.execPath, [TSC, '-p', '.'], directory);
  return { directory };
}

describe('real tsc on a project using the package', () => {
  it.each(PROJECTS.map((project) => [project.name, project] as const))(
    '%s: valid tools compile and run, and the @Field guard fires where the compiler can tell',
    (_name, project) => {
      const files: Record<string, string> = { 'valid.ts': VALID_TS, 'guarded.ts': GUARDED_TS };
      if (project.strictNullChecks) files['strict-only.ts'] = STRICT_ONLY_TS;
      else files['loose.ts'] = LOOSE_TS;
      // An unused @ts-expect-error fails the compile: every marked line is refused, every other line accepted.
      const { directory } = compileProject(project, files);
      const printed = JSON.parse(run(process.execPath, [path.join('dist', 'valid.js')], directory)) as {
        schema: any;
        answer: string;
      };
      expect(printed.answer).toBe('Oslo in celsius for 3 days');
      expect(printed.schema.required).toEqual(['city', 'units']);
      expect(printed.schema.properties).toEqual({
        city: { type: 'string' },
        country: { type: 'string' },
        units: { type: 'string', enum: ['celsius', 'fahrenheit'] },
        pace: { type: 'string', enum: ['fast', 'slow'] },
        days: { type: 'integer', default: 3 },
        tags: { type: 'array', items: { type: 'string' }, default: [] },
      });
    },
  );
});
