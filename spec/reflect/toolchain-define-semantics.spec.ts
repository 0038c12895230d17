import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { esbuild, swc, tsc, typeScriptFiles, compileTree } from './toolchains';

const ROOT = path.join(__dirname, '../..');
const FIXTURE = path.join(__dirname, 'fixtures', 'injected-tool.ts');

/**
 * Toolchains that emit class fields with `[[Define]]` semantics (ES2022's own; TypeScript's default from target
 * ES2022), legacy decorators.
 */
const DEFINE_TOOLCHAINS = [
  { name: 'tsc, useDefineForClassFields: true, target ES2022', compile: tsc(true, 'define') },
  { name: 'esbuild, useDefineForClassFields: true, target es2022', compile: esbuild(true, 'define') },
  { name: 'swc, useDefineForClassFields: true, target es2022', compile: swc('legacy with metadata', 'define') },
  { name: 'tsc, useDefineForClassFields: false (the build of the package)', compile: tsc(true, 'assign') },
] as const;

let directory: string;

beforeAll(() => {
  directory = fs.mkdtempSync(path.join(os.tmpdir(), 'wuwe-define-fields-'));
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(directory, 'node_modules'), 'dir');
});

afterAll(() => fs.rmSync(directory, { recursive: true, force: true }));

describe('lib/ compiled with define semantics for class fields', () => {
  it.each(DEFINE_TOOLCHAINS.map((toolchain, index) => [toolchain.name, toolchain, index] as const))(
    '%s: a tool resolved from the Nest container through ToolRegistry gets its dependency',
    (_name, toolchain, index) => {
      const out = path.join(directory, String(index));
      compileTree(toolchain.compile, ROOT, [...typeScriptFiles(path.join(ROOT, 'lib')), FIXTURE], out);
      const printed = execFileSync(
        process.execPath,
        [path.join(out, 'spec', 'reflect', 'fixtures', 'injected-tool.js')],
        { encoding: 'utf8', stdio: 'pipe' },
      );
      const report = JSON.parse(printed) as { registered: string[]; outcome: unknown; direct: unknown };
      expect(report.registered).toEqual(['greet']);
      expect(report.outcome).toMatchObject({ ok: true, text: 'Hello, Ada' });
      expect(report.direct).toMatchObject({ ok: true, text: 'Hello, Grace' });
    },
    60_000,
  );
});
