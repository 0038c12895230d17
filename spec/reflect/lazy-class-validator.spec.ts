import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildSync } from 'esbuild';

const root = path.resolve(__dirname, '../..');
let directory: string;

// The root's sources and `makeLlmTool` of wuwe/tools bundled into one CommonJS file (packages left external), so a
// fresh process loads them fast.
beforeAll(() => {
  directory = fs.mkdtempSync(path.join(os.tmpdir(), 'wuwe-lazy-'));
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(directory, 'node_modules'), 'dir');
  buildSync({
    stdin: {
      contents:
        "export { Field, parseToolArguments, Tool } from './lib';\nexport { makeLlmTool } from './lib/tools';\n",
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    packages: 'external',
    outfile: path.join(directory, 'wuwe.js'),
    logLevel: 'error',
  });
});

afterAll(() => fs.rmSync(directory, { recursive: true, force: true }));

/** Runs a script in a fresh Node process and returns what it printed last, as JSON. */
function runFresh(script: string): { validatorModules: number; stored: boolean } {
  const output = execFileSync(process.execPath, ['-e', script], { cwd: directory, encoding: 'utf8' });
  return JSON.parse(output.trim().split('\n').pop() as string);
}

const report = `
  const loaded = Object.keys(require.cache).filter((file) => /node_modules[\\\\/]class-validator/.test(file));
  console.log(JSON.stringify({ validatorModules: loaded.length, stored: globalThis.classValidatorMetadataStorage !== undefined }));
`;

describe('class-validator loading', () => {
  it('loads neither class-validator nor class-validator-jsonschema while no class uses their decorators', () => {
    const result = runFresh(`
      require('reflect-metadata');
      const { Field, Tool, makeLlmTool, parseToolArguments } = require('./wuwe.js');
      class Weather { invoke() {} }
      Tool({ description: 'd' })(Weather);
      Field({ type: String })(Weather.prototype, 'city');
      makeLlmTool(Weather);
      parseToolArguments(Weather, { city: 'Oslo' });
      ${report}
    `);
    expect(result).toEqual({ validatorModules: 0, stored: false });
  });

  it('loads them once a class uses a class-validator decorator, and reflects it', () => {
    const result = runFresh(`
      require('reflect-metadata');
      const { Min } = require('class-validator');
      const { Field, Tool, makeLlmTool } = require('./wuwe.js');
      class Nights { invoke() {} }
      Tool({ description: 'd' })(Nights);
      Field({ type: Number })(Nights.prototype, 'nights');
      Min(1)(Nights.prototype, 'nights');
      const nights = makeLlmTool(Nights).inputSchema.properties.nights;
      if (nights.minimum !== 1) throw new Error(JSON.stringify(nights));
      ${report}
    `);
    expect(result.stored).toBe(true);
    expect(result.validatorModules).toBeGreaterThan(10);
  });
});
