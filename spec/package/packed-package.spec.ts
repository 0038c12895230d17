import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PackedConsumer, packAndInstall, root, run, tsc } from './packed-package';

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
import { Field, LlmAgentRunner, ManualClock, ReflectedToolProvider, ScriptedModelClient, Tool, ToolOutcome } from 'wuwe';
import { ScriptedModelClient as TestingScriptedModelClient } from 'wuwe/testing';

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
  return JSON.stringify({ text: result.text, outcome, code: codeOf(outcome), same: TestingScriptedModelClient === ScriptedModelClient });
}

main().then((line) => process.stdout.write(line), (error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
`;

const EXPECTED = { text: 'done', outcome: { ok: true, text: 'Tokyo is 22 degrees.' }, code: 'ok', same: true };

describe('the packed package in a consumer project', () => {
  let packed: PackedConsumer;
  beforeAll(() => {
    packed = packAndInstall();
  });
  afterAll(() => packed?.dispose());

  it.each<[string, { type?: string }]>([
    ['CommonJS', {}],
    ['ESM ("type": "module")', { type: 'module' }],
  ])('%s: the README tsconfig compiles under strict without skipLibCheck and without driver types, and runs a tool', (_kind, extra) => {
    const project = join(packed.consumer, extra.type === 'module' ? 'esm' : 'cjs');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'app', private: true, ...extra }));
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(README_TSCONFIG));
    writeFileSync(join(project, 'main.ts'), MAIN_TS);
    run(process.execPath, [tsc, '-p', '.'], project);
    const output = JSON.parse(run(process.execPath, [join('out', 'main.js')], project)) as unknown;
    expect(output).toEqual(EXPECTED);
  });

  it("require('wuwe') (the built core) loads none of better-sqlite3, pg, @anthropic-ai/sdk, class-validator, though all are installed", () => {
    // The repository has every optional back-end installed; `npm pack` built its dist/.
    const script = `require('reflect-metadata'); require(${JSON.stringify(root)}); process.stdout.write(JSON.stringify(Object.keys(require.cache)));`;
    const loaded = JSON.parse(run(process.execPath, ['-e', script], root)) as string[];
    expect(loaded.some((path) => path.includes(`${root}/dist/`))).toBe(true);
    const heavy = loaded.filter((path) => /[\\/]node_modules[\\/](better-sqlite3|pg|pg-boss|@anthropic-ai[\\/]sdk|class-validator)[\\/]/.test(path));
    expect(heavy).toEqual([]);
  });

  it('a missing optional back-end is a MissingDependencyError naming the package to install', () => {
    const script = `
      require('reflect-metadata');
      const wuwe = require('wuwe');
      const attempts = {
        SqliteRunStore: () => new wuwe.SqliteRunStore({ path: ':memory:' }),
        PostgresRunStore: () => wuwe.PostgresRunStore.open({ connectionString: 'postgres://127.0.0.1:1/none' }),
        SqliteMemory: () => new wuwe.SqliteMemory(':memory:'),
        KnowledgeIndex: () => new wuwe.KnowledgeIndex(),
        AnthropicModelClient: () => new wuwe.AnthropicModelClient({ apiKey: 'key' }),
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
    const report = JSON.parse(run(process.execPath, ['-e', script], packed.consumer)) as Record<string, { missing: boolean; packageName: string; message: string }>;
    const expected: Record<string, string> = {
      SqliteRunStore: 'better-sqlite3',
      PostgresRunStore: 'pg',
      SqliteMemory: 'better-sqlite3',
      KnowledgeIndex: 'better-sqlite3',
      AnthropicModelClient: '@anthropic-ai/sdk',
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

  it('publint and @arethetypeswrong/cli find no problem in the tarball', () => {
    run(process.execPath, [join(root, 'node_modules', 'publint', 'src', 'cli.js'), 'run', packed.tarball, '--strict'], root);
    run(process.execPath, [join(root, 'node_modules', '@arethetypeswrong', 'cli', 'dist', 'index.js'), packed.tarball, '--profile', 'node16'], root);
  });

  it('ships no source maps pointing at sources it does not ship', () => {
    const listing = run('tar', ['-tzf', packed.tarball], root).split('\n');
    expect(listing.filter((name) => name.endsWith('.map'))).toEqual([]);
    expect(listing).toEqual(expect.arrayContaining(['package/LICENSE', 'package/dist/index.js', 'package/dist/index.d.ts']));
  });
});
