/** Bundles the page's script (`page.ts` and the `ai` package) with esbuild, in memory: no CDN, no network. */
import { join } from 'node:path';

/** The page script as one browser file. Needs the dev dependency `esbuild`. */
export async function bundlePage(): Promise<string> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const esbuild = require('esbuild') as typeof import('esbuild');
  const result = await esbuild.build({
    entryPoints: [join(__dirname, 'page.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'silent',
  });
  return result.outputFiles[0].text;
}
