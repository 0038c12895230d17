import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { installedPackages, PackedConsumer, root, run, sharedPackedConsumer, tsc } from './packed-package';

jest.setTimeout(600_000);

/** The tsconfig the README gives for a project using wuwe. */
const README_TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'node16',
    strict: true,
    experimentalDecorators: true,
    emitDecoratorMetadata: true,
    outDir: 'out',
  },
  include: ['main.ts'],
};

/** A consumer program: a tool run through the scripted model, a failure narrowed on `ok`, the test clock. */
const MAIN_TS = `
import 'reflect-metadata';
import { Field, LlmAgentRunner, ReflectedToolProvider, ScriptedModelClient, Tool, ToolOutcome } from 'wuwe';
import { DEFAULT_RETRY_POLICY } from 'wuwe/contract';
import { canonicalJson } from 'wuwe/durable';
import { JobManager } from 'wuwe/execution';
import { FilesystemToolkit } from 'wuwe/filesystem';
import { KnowledgeIndex } from 'wuwe/knowledge';
import { MemoryToolProvider } from 'wuwe/memory';
import { BaseModelClient } from 'wuwe/model';
import { ProcessToolkit } from 'wuwe/process';
import { DEFAULT_TOOL_OUTPUT_PROJECTION } from 'wuwe/projection';
import { SYSTEM_CLOCK } from 'wuwe/runner';
import { ManualClock } from 'wuwe/testing';
import { makeLlmTool } from 'wuwe/tools';
import { guardJsonValue } from 'wuwe/validation';

const subpaths = [DEFAULT_RETRY_POLICY, canonicalJson, JobManager, FilesystemToolkit, KnowledgeIndex, MemoryToolProvider, BaseModelClient, ProcessToolkit, DEFAULT_TOOL_OUTPUT_PROJECTION, SYSTEM_CLOCK, makeLlmTool, guardJsonValue];

@Tool({ description: 'Get the current weather for a city.' })
class GetWeather {
  @Field({ description: 'City name.' })
  city!: string;

  invoke(): string {
    return \`\${this.city} is 22 degrees.\`;
  }
}

function codeOf(outcome: ToolOutcome): string {
  return outcome.ok ? 'ok' : outcome.error.code;
}

async function main(): Promise<string> {
  const model = new ScriptedModelClient([{ toolCalls: [{ name: 'GetWeather', arguments: '{"city":"Tokyo"}' }] }, { text: 'done' }]);
  const runner = new LlmAgentRunner(model, new ReflectedToolProvider([GetWeather]), { clock: new ManualClock() });
  const result = await runner.complete("What's the weather in Tokyo?");
  const outcome = result.toolCalls[0].outcome;
  return JSON.stringify({ text: result.text, outcome, code: codeOf(outcome), subpaths: subpaths.every((name) => name !== undefined) });
}

main().then((line) => process.stdout.write(line), (error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
`;

/** A consumer of `wuwe/ai-sdk` without the AI SDK installed: a hand-written model answering in two steps. */
const AI_SDK_MAIN_TS = `
import 'reflect-metadata';
import { Field, Tool } from 'wuwe';
import { AiSdkLanguageModel, AiSdkModelClient } from 'wuwe/ai-sdk';

@Tool({ description: 'Get the current weather for a city.' })
class GetWeather {
  @Field({ description: 'City name.' })
  city!: string;

  invoke(): string {
    return \`\${this.city} is 22 degrees.\`;
  }
}

let step = 0;
const model: AiSdkLanguageModel = {
  specificationVersion: 'v3',
  provider: 'hand-written',
  modelId: 'two-steps',
  async doGenerate() {
    step += 1;
    const usage = { inputTokens: { total: 1 }, outputTokens: { total: 2 } };
    if (step === 1) {
      return { content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'GetWeather', input: '{"city":"Tokyo"}' }], finishReason: { unified: 'tool-calls' }, usage };
    }
    return { content: [{ type: 'text', text: 'Tokyo is 22 degrees.' }], finishReason: { unified: 'stop' }, usage };
  },
  doStream() {
    return Promise.reject(new Error('not streamed'));
  },
};

new AiSdkModelClient(model).bindTools(GetWeather).complete('Weather in Tokyo?').then(
  (result) => process.stdout.write(JSON.stringify({ text: result.text, outcome: result.toolCalls[0].outcome, usage: result.usage })),
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
`;

/** Every entry of the package (`wuwe`, `wuwe/runner`, ...) with the built module it resolves to. */
const ENTRIES: [string, string][] = Object.entries(
  (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, unknown> }).exports,
)
  .filter((entry): entry is [string, { default: string }] => typeof entry[1] === 'object' && entry[1] !== null)
  .map(([subpath, target]) => [subpath === '.' ? 'wuwe' : `wuwe/${subpath.slice(2)}`, target.default.slice(2)]);

/** A module of an optional peer dependency (or of class-validator), which no entry may load when required. */
const OPTIONAL_PEER =
  /[\\/]node_modules[\\/](better-sqlite3|pg|pg-boss|@anthropic-ai[\\/]sdk|openai|ai|@ai-sdk[\\/][^\\/]+|@modelcontextprotocol[\\/]sdk|@nestjs[\\/][^\\/]+|js-tiktoken|@opentelemetry[\\/][^\\/]+|class-validator|class-transformer)[\\/]/;

/** The folders of dist/ behind an entry of their own: one loads them by requiring that entry. */
const OPTIONAL_FOLDERS = [
  'durable/sqlite',
  'durable/postgres',
  'model/anthropic',
  'model/openai',
  'model/ai-sdk',
  'ui-stream',
  'projection/tiktoken',
  'modules/filesystem',
  'modules/process',
  'modules/memory',
  'modules/knowledge',
  'modules/execution',
  'mcp',
  'nest',
  'telemetry',
  'queue',
  'testing',
  'cli',
];

/** What an entry loads of another entry's folder because its concern builds on it. */
const ALSO_LOADS: Record<string, readonly string[]> = {
  'wuwe/process': ['modules/filesystem'], // the working directory is a confined root
  'wuwe/knowledge': ['modules/filesystem'], // directories are indexed inside a confined root
  'wuwe/memory': ['modules/knowledge'], // the SQLite source and the legacy direct invocation
  'wuwe/execution': ['modules/knowledge'], // the legacy direct invocation
  'wuwe/sqlite': ['modules/knowledge', 'modules/memory'], // the SQLite source
  'wuwe/ai-sdk': ['model/openai'], // the JSON shape checks of tool inputs
  'wuwe/queue': ['durable/postgres'], // the queue lives in the store's database
};

const EXPECTED = { text: 'done', outcome: { ok: true, text: 'Tokyo is 22 degrees.' }, code: 'ok', subpaths: true };

describe('the packed package in a consumer project', () => {
  let packed: PackedConsumer;
  beforeAll(async () => {
    packed = await sharedPackedConsumer();
  });
  afterAll(() => packed?.dispose());

  it.each<[string, string, { type?: string }, string]>([
    ['CommonJS', 'cjs', {}, 'node16'],
    ['ESM ("type": "module")', 'esm', { type: 'module' }, 'node16'],
    ['"module": "commonjs" (node10 resolution)', 'commonjs', {}, 'commonjs'],
  ])(
    '%s: the README tsconfig compiles under strict without skipLibCheck and without driver types, and runs a tool',
    (_kind, directory, extra, module) => {
      const project = join(packed.consumer, directory);
      mkdirSync(project);
      writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'app', private: true, ...extra }));
      const options =
        module === 'commonjs'
          ? { ...README_TSCONFIG.compilerOptions, module, esModuleInterop: true }
          : README_TSCONFIG.compilerOptions;
      writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ ...README_TSCONFIG, compilerOptions: options }));
      writeFileSync(join(project, 'main.ts'), MAIN_TS);
      run(process.execPath, [tsc, '-p', '.'], project);
      const output = JSON.parse(run(process.execPath, [join('out', 'main.js')], project)) as unknown;
      expect(output).toEqual(EXPECTED);
    },
  );

  it('wuwe/ai-sdk compiles under strict without skipLibCheck and without @ai-sdk/provider, and runs a hand-written LanguageModelV3', () => {
    const project = join(packed.consumer, 'ai-sdk');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'app', private: true }));
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(README_TSCONFIG));
    writeFileSync(join(project, 'main.ts'), AI_SDK_MAIN_TS);
    run(process.execPath, [tsc, '-p', '.'], project);
    const output = JSON.parse(run(process.execPath, [join('out', 'main.js')], project)) as unknown;
    expect(output).toEqual({
      text: 'Tokyo is 22 degrees.',
      outcome: { ok: true, text: 'Tokyo is 22 degrees.' },
      usage: { inputTokens: 2, outputTokens: 4 },
    });
  });

  it.each(ENTRIES)(
    "require('%s') loads no optional peer, and of wuwe's optional folders only those its concern needs",
    (specifier, target) => {
      // The repository has every optional back-end installed; `npm pack` built its dist/.
      const script = `require('reflect-metadata'); require(${JSON.stringify(join(root, target))}); process.stdout.write(JSON.stringify(Object.keys(require.cache)));`;
      const loaded = JSON.parse(run(process.execPath, ['-e', script], root)) as string[];
      expect(loaded.some((path) => path.includes(`${root}/dist/`))).toBe(true);
      expect(loaded.filter((path) => OPTIONAL_PEER.test(path))).toEqual([]);
      const folders = new Set(
        loaded
          .filter((path) => path.startsWith(join(root, 'dist') + '/'))
          .map((path) => path.slice(join(root, 'dist').length + 1).replace(/\/[^/]*$/, '')),
      );
      const own = OPTIONAL_FOLDERS.filter((folder) => target.startsWith(`dist/${folder}/`));
      const allowed = [...own, ...(ALSO_LOADS[specifier] ?? [])];
      const strangers = OPTIONAL_FOLDERS.filter((folder) => folders.has(folder) && !allowed.includes(folder));
      expect({ specifier, strangers }).toEqual({ specifier, strangers: [] });
    },
  );

  it("require('wuwe/openai') loads the openai SDK only when a client is constructed", () => {
    const script = `
      const entry = require(${JSON.stringify(join(root, 'dist', 'model', 'openai', 'index.js'))});
      const sdkLoaded = () => Object.keys(require.cache).some((path) => /[\\\\/]node_modules[\\\\/]openai[\\\\/]/.test(path));
      const before = sdkLoaded();
      new entry.OpenAIModelClient({ apiKey: 'key' });
      process.stdout.write(JSON.stringify({ before, after: sdkLoaded() }));
    `;
    expect(JSON.parse(run(process.execPath, ['-e', script], root))).toEqual({ before: false, after: true });
  });

  it('a missing optional back-end is a MissingDependencyError naming the package to install', () => {
    const script = `
      require('reflect-metadata');
      const wuwe = require('wuwe');
      const attempts = {
        SqliteRunStore: () => new (require('wuwe/sqlite').SqliteRunStore)({ path: ':memory:' }),
        PostgresRunStore: () => require('wuwe/postgres').PostgresRunStore.open({ connectionString: 'postgres://127.0.0.1:1/none' }),
        SqliteMemory: () => new (require('wuwe/memory').SqliteMemory)(':memory:'),
        KnowledgeIndex: () => new (require('wuwe/knowledge').KnowledgeIndex)(),
        AnthropicModelClient: () => new (require('wuwe/anthropic').AnthropicModelClient)({ apiKey: 'key' }),
        OpenAIModelClient: () => new (require('wuwe/openai').OpenAIModelClient)({ apiKey: 'key' }),
        RunQueue: () => require('wuwe/queue').RunQueue.open({ store: {}, connectionString: 'postgres://127.0.0.1:1/none' }),
      };
      (async () => {
        const report = {};
        for (const [name, attempt] of Object.entries(attempts)) {
          try {
            await attempt();
            report[name] = 'no error';
          } catch (error) {
            report[name] = { missing: wuwe.MissingDependencyError.isInstance(error), code: error.code, packageName: error.packageName, message: error.message };
          }
        }
        process.stdout.write(JSON.stringify(report));
      })();
    `;
    const report = JSON.parse(run(process.execPath, ['-e', script], packed.consumer)) as Record<
      string,
      { missing: boolean; packageName: string; message: string }
    >;
    const expected: Record<string, string> = {
      SqliteRunStore: 'better-sqlite3',
      PostgresRunStore: 'pg',
      SqliteMemory: 'better-sqlite3',
      KnowledgeIndex: 'better-sqlite3',
      AnthropicModelClient: '@anthropic-ai/sdk',
      OpenAIModelClient: 'openai',
      RunQueue: 'pg-boss',
    };
    for (const [name, packageName] of Object.entries(expected)) {
      expect({ name, ...report[name] }).toEqual({
        name,
        missing: true,
        code: 'missing_dependency',
        packageName,
        message: expect.stringContaining(`npm install ${packageName}`),
      });
    }
  });

  it('publint finds no problem in the tarball (--strict)', () => {
    run(
      process.execPath,
      [join(root, 'node_modules', 'publint', 'src', 'cli.js'), 'run', packed.tarball, '--strict'],
      root,
    );
  });

  // The default profile checks every resolution: node10 (TypeScript's `"module": "commonjs"`, which ignores
  // `exports`), node16 from CommonJS and from ESM, and bundler.
  it('@arethetypeswrong/cli finds no problem in the tarball under any resolution, node10 included', () => {
    const attw = join(root, 'node_modules', '@arethetypeswrong', 'cli', 'dist', 'index.js');
    // It exits 1 when it finds problems; the JSON report says which.
    const report = spawnSync(process.execPath, [attw, packed.tarball, '--format', 'json'], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    const { analysis } = JSON.parse(report.stdout) as { analysis: { problems: unknown[] } };
    expect(analysis.problems).toEqual([]);
    expect(report.status).toBe(0);
  });

  it('installs no provider SDK, no class-validator and nothing they pull in: only what the core loads', () => {
    const names = installedPackages(packed.consumer).map((entry) => entry.replace(/@[^@]+$/, ''));
    const unwanted = names.filter((name) =>
      /^(@ai-sdk\/|@anthropic-ai\/|openai$|zod$|undici$|eventsource-parser$|class-validator|class-transformer$|libphonenumber-js$|validator$|better-sqlite3$|pg$|pg-boss$|@modelcontextprotocol\/|@nestjs\/)/.test(
        name,
      ),
    );
    expect(unwanted).toEqual([]);
    expect(names).toEqual(expect.arrayContaining(['wuwe', 'ajv', 'reflect-metadata']));
    const script = `
      require('reflect-metadata');
      const wuwe = require('wuwe');
      const tools = require('wuwe/tools');
      class Weather { invoke() { return this.city + ' is sunny'; } }
      wuwe.Tool({ description: 'Weather.' })(Weather);
      wuwe.Field({ type: String })(Weather.prototype, 'city');
      tools.invokeReflectedTool(Weather, '{"city":"Oslo"}').then((outcome) => process.stdout.write(JSON.stringify({ schema: tools.makeLlmTool(Weather).inputSchema.required, outcome })));
    `;
    expect(JSON.parse(run(process.execPath, ['-e', script], packed.consumer))).toEqual({
      schema: ['city'],
      outcome: { ok: true, text: 'Oslo is sunny' },
    });
  });

  it('a class using class-validator decorators without class-validator-jsonschema installed is a MissingDependencyError naming it', () => {
    const project = join(packed.consumer, 'class-validator-only');
    mkdirSync(join(project, 'node_modules'), { recursive: true });
    symlinkSync(join(root, 'node_modules', 'class-validator'), join(project, 'node_modules', 'class-validator'), 'dir');
    const script = `
      require('reflect-metadata');
      const { Min } = require('class-validator');
      const wuwe = require('wuwe');
      class Nights { invoke() { return 'booked'; } }
      wuwe.Tool({ description: 'Book nights.' })(Nights);
      wuwe.Field({ type: Number })(Nights.prototype, 'nights');
      Min(1)(Nights.prototype, 'nights');
      try {
        require('wuwe/tools').makeLlmTool(Nights);
        process.stdout.write('{"error":"none"}');
      } catch (error) {
        process.stdout.write(JSON.stringify({ missing: wuwe.MissingDependencyError.isInstance(error), packageName: error.packageName, message: error.message }));
      }
    `;
    expect(JSON.parse(run(process.execPath, ['-e', script], project))).toEqual({
      missing: true,
      packageName: 'class-validator-jsonschema',
      message: expect.stringContaining('npm install class-validator-jsonschema'),
    });
  });

  it('ships no source maps pointing at sources it does not ship', () => {
    const listing = run('tar', ['-tzf', packed.tarball], root).split('\n');
    expect(listing.filter((name) => name.endsWith('.map'))).toEqual([]);
    expect(listing).toEqual(
      expect.arrayContaining(['package/LICENSE', 'package/dist/index.js', 'package/dist/index.d.ts']),
    );
  });
});
