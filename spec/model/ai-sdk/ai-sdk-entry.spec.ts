import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as wuwe from 'wuwe';
import * as aiSdk from '../../../lib/model/ai-sdk';

const root = join(__dirname, '../../..');
const json = (file: string): any => JSON.parse(readFileSync(join(root, file), 'utf8'));

describe("the 'wuwe/ai-sdk' entry", () => {
  it('is a package export and an API reference entry, with @ai-sdk/provider an optional peer', () => {
    const pkg = json('package.json');
    expect(pkg.exports['./ai-sdk']).toEqual({
      types: './dist/model/ai-sdk/index.d.ts',
      default: './dist/model/ai-sdk/index.js',
    });
    expect(pkg.peerDependencies['@ai-sdk/provider']).toBe('^3.0.0');
    expect(pkg.peerDependenciesMeta['@ai-sdk/provider']).toEqual({ optional: true });
    expect(json('typedoc.json').entryPoints).toContain('lib/model/ai-sdk/index.ts');
  });

  it('exposes the client, which the core entry does not, and leaves the error classes to the core entry', () => {
    expect(typeof aiSdk.AiSdkModelClient).toBe('function');
    expect('ModelApiError' in aiSdk).toBe(false);
    expect(typeof wuwe.ModelApiError).toBe('function');
    expect('AiSdkModelClient' in wuwe).toBe(false);
  });
});
