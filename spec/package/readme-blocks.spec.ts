import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG_1X1 } from '../support/tiny-images';
import { blockProgram, commonJsProgram, DocBlock, documentationBlocks, exportedNames } from './doc-blocks';
import { root, sharedPackedConsumer, tsc } from './packed-package';
import { ReadmeModelApi, startReadmeModelApi } from './readme-model-api';
import { installReadmeProject, RUN_EXAMPLES_SCRIPT, writeExampleFiles } from './readme-project';
import { README_WRAPPERS } from './readme-wrappers';

jest.setTimeout(900_000);

/** The README's tsconfig: the node16 profile, for ES modules (`"type": "module"`), and the commonjs one. */
const COMPILER_OPTIONS = {
  target: 'ES2022',
  module: 'node16',
  strict: true,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
};
const COMMONJS_OPTIONS = { ...COMPILER_OPTIONS, module: 'commonjs', esModuleInterop: true };
/** How long one example may run. */
const EXAMPLE_TIMEOUT_MS = 20_000;

/**
 * Errors inside another package's declarations that the README states as that package's limit: under
 * node10 resolution (`"module": "commonjs"`), `@ai-sdk/provider-utils` cannot resolve the types of
 * `eventsource-parser/stream` (README, "Any model through the AI SDK").
 */
const KNOWN_COMMONJS_LIBRARY_ERRORS = [
  /node_modules\/@ai-sdk\/provider-utils\/dist\/index\.d\.ts\(\d+,\d+\): error TS7016: .*'eventsource-parser\/stream'/,
];

/** The errors tsc reported, by file (a block's file name, or the declaration file they are in), less the known ones. */
function compileErrors(project: string, known: readonly RegExp[] = []): Record<string, string[]> {
  const result = spawnSync(process.execPath, [tsc, '-p', '.'], {
    cwd: project,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const errors: Record<string, string[]> = {};
  let file = '(tsc)';
  let skipping = false;
  for (const line of `${result.stdout}${result.stderr}`.split('\n')) {
    const located = /^(\S+?)\(\d+,\d+\): error/.exec(line);
    if (located !== null) {
      file = located[1].replace(/^blocks\//, '').replace(/\.ts$/, '');
      skipping = known.some((pattern) => pattern.test(line));
    }
    if (line.trim() !== '' && !skipping) (errors[file] ??= []).push(line);
  }
  const reported = Object.keys(errors).length > 0 || known.length > 0;
  if (result.status !== 0 && !reported) errors['(tsc)'] = [`exit ${result.status}`];
  return errors;
}

/** Writes a tsconfig project of the given programs. */
function writeProject(
  project: string,
  options: object,
  type: 'module' | 'commonjs',
  programs: ReadonlyMap<string, string>,
): void {
  mkdirSync(join(project, 'blocks'), { recursive: true });
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: `readme-${type}`, private: true, type }));
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { ...options, outDir: 'out' }, include: ['blocks/*.ts'] }),
  );
  for (const [name, program] of programs) writeFileSync(join(project, 'blocks', `${name}.ts`), program);
}

/** Runs the compiled examples in one child process (stdin kept open: one example serves MCP on it). */
function runExamples(
  project: string,
  examples: readonly { name: string; file: string; cwd: string }[],
  env: NodeJS.ProcessEnv,
): Promise<{ failures: Record<string, string[]>; output: string }> {
  const list = join(project, 'examples.json');
  const report = join(project, 'report.json');
  writeFileSync(list, JSON.stringify(examples));
  writeFileSync(join(project, 'run-examples.mjs'), RUN_EXAMPLES_SCRIPT);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['run-examples.mjs', list, report, String(EXAMPLE_TIMEOUT_MS)], {
      cwd: project,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    const keep = (chunk: Buffer): void => {
      if (output.length < 200_000) output += chunk.toString('utf8');
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const limit = setTimeout(() => child.kill('SIGKILL'), (examples.length + 2) * EXAMPLE_TIMEOUT_MS);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(limit);
      try {
        resolve({ failures: JSON.parse(readFileSync(report, 'utf8')) as Record<string, string[]>, output });
      } catch {
        reject(new Error(`the example runner exited (${code ?? signal}) without a report:\n${output}`));
      }
    });
  });
}

describe('the examples of README.md and docs/*.md', () => {
  const blocks: DocBlock[] = documentationBlocks(root);
  let project: string;
  let programs: Map<string, string>;
  let modelApi: ReadmeModelApi;

  beforeAll(async () => {
    const packed = await sharedPackedConsumer();
    project = join(packed.work, 'readme');
    installReadmeProject(project, packed.tarball);
    const rootExports = exportedNames(join(project, 'node_modules', 'wuwe', 'dist', 'index.d.ts'));
    programs = new Map(
      blocks.map((block) => [
        block.name,
        blockProgram(block.code, rootExports, README_WRAPPERS[block.fragment ?? '']?.prelude ?? ''),
      ]),
    );
    modelApi = await startReadmeModelApi();
  });
  afterAll(() => modelApi?.close());

  it('are found: every ts block of README.md (and docs/*.md), each fragment naming a wrapper that exists', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(30);
    const unknown = blocks.filter(
      (block) => block.fragment !== undefined && README_WRAPPERS[block.fragment] === undefined,
    );
    expect(unknown.map((block) => `${block.document}:${block.line} ${block.fragment}`)).toEqual([]);
    const unused = Object.keys(README_WRAPPERS).filter((name) => !blocks.some((block) => block.fragment === name));
    expect(unused).toEqual([]);
  });

  it('compile under the README tsconfig with "module": "node16" as ES modules, strict, without skipLibCheck', () => {
    writeProject(join(project, 'esm'), COMPILER_OPTIONS, 'module', programs);
    expect(compileErrors(join(project, 'esm'))).toEqual({});
  });

  it('compile under the README tsconfig with "module": "commonjs" (top-level await moved into main())', () => {
    const commonJs = new Map([...programs].map(([name, program]) => [name, commonJsProgram(program)]));
    writeProject(join(project, 'cjs'), { ...COMMONJS_OPTIONS, noEmit: true }, 'commonjs', commonJs);
    expect(compileErrors(join(project, 'cjs'), KNOWN_COMMONJS_LIBRARY_ERRORS)).toEqual({});
  });

  it('run offline: each runnable block completes within its time limit, against the scripted model or a local model API', async () => {
    const esm = join(project, 'esm');
    const examples = blocks
      .filter((block) => block.fragment === undefined || README_WRAPPERS[block.fragment]?.run === true)
      .map((block) => {
        const cwd = join(project, 'work', block.name);
        mkdirSync(cwd, { recursive: true });
        writeExampleFiles(cwd, PNG_1X1);
        return { name: block.name, file: join(esm, 'out', `${block.name}.js`), cwd };
      });
    const env = { ...process.env, ...modelApi.env, PORT: '0' };
    const { failures, output } = await runExamples(project, examples, env);
    expect({ failures, output: Object.keys(failures).length > 0 ? output : '' }).toEqual({ failures: {}, output: '' });
    // The examples written against a provider reached its stand-in through the real SDKs.
    expect(new Set(modelApi.requests.map((request) => request.path))).toEqual(
      new Set(['/v1/messages', '/v1/chat/completions', '/v1/responses']),
    );
  });
});
