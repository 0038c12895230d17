import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '../..');
jest.setTimeout(180_000);

describe('the built package', () => {
  const work = mkdtempSync(join(tmpdir(), 'wuwe-package-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("builds to dist/ and a consumer's require('wuwe') runs a tool through package.json exports", () => {
    const pkg = join(work, 'node_modules', 'wuwe');
    mkdirSync(pkg, { recursive: true });
    copyFileSync(join(root, 'package.json'), join(pkg, 'package.json'));
    symlinkSync(join(root, 'node_modules'), join(pkg, 'node_modules'), 'dir');
    symlinkSync(join(root, 'node_modules', 'reflect-metadata'), join(work, 'node_modules', 'reflect-metadata'), 'dir');
    execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.build.json'), '--outDir', join(pkg, 'dist')], {
      stdio: 'pipe',
    });
    writeFileSync(
      join(work, 'consumer.js'),
      [
        "require('reflect-metadata');",
        "const { makeLlmTool, invokeReflectedTool, Tool, Field, DEFAULT_TOOL_OUTPUT_PROJECTION } = require('wuwe');",
        'class Echo { invoke() { return `echo ${this.text}`; } }',
        "Reflect.defineMetadata('design:type', String, Echo.prototype, 'text');",
        "Field({ description: 'Text.' })(Echo.prototype, 'text');",
        "Tool({ description: 'Echo.' })(Echo);",
        "invokeReflectedTool(Echo, '{\"text\":\"hi\"}').then((outcome) => {",
        '  process.stdout.write(JSON.stringify({ tool: makeLlmTool(Echo), outcome, projection: DEFAULT_TOOL_OUTPUT_PROJECTION }));',
        '});',
      ].join('\n'),
    );
    const output = JSON.parse(execFileSync(process.execPath, [join(work, 'consumer.js')], { cwd: work, encoding: 'utf8' }));
    expect(output.tool).toEqual({
      name: 'Echo',
      description: 'Echo.',
      inputSchema: { type: 'object', properties: { text: { type: 'string', description: 'Text.' } }, required: ['text'], additionalProperties: false },
    });
    expect(output.outcome).toEqual({ ok: true, text: 'echo hi' });
    expect(output.projection).toEqual({ maxBytes: 65536, maxTokens: 10000 });
  });
});
