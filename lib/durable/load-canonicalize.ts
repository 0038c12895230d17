import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The `canonicalize` package's function: RFC 8785 (JCS) text of a JSON value. */
export type Canonicalize = (value: unknown) => string | undefined;

let loaded: Canonicalize | undefined;

/**
 * Loads the installed `canonicalize` package synchronously.
 *
 * The package ships as an ES module only (its `exports` offer an `import` condition and nothing else), which a
 * CommonJS build can neither `require` on every supported Node version nor `import()` under a test runner's
 * module sandbox. Its entry is one self-contained file with a single default export, so the file is located
 * next to this package's other dependencies and evaluated as a function body.
 */
export function loadCanonicalize(): Canonicalize {
  if (loaded) return loaded;
  const file = locateEntry();
  const source = readFileSync(file, 'utf8');
  const marker = 'export default function canonicalize';
  if (source.split(marker).length !== 2 || /^\s*(import|export)\s/m.test(source.replace(marker, ''))) {
    throw new Error(`The canonicalize package at ${file} has an unexpected layout; expected one default-exported function`);
  }
  // The text is the installed package's own module body, checked above to hold one function and no imports.
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  const factory = new Function(`'use strict';\n${source.replace(marker, 'return function canonicalize')}`) as () => Canonicalize;
  loaded = factory();
  return loaded;
}

function locateEntry(): string {
  const candidates = (require.resolve.paths('canonicalize') ?? []).map((dir) => join(dir, 'canonicalize', 'lib', 'canonicalize.js'));
  candidates.push(join(dirname(__dirname), '..', 'node_modules', 'canonicalize', 'lib', 'canonicalize.js'));
  const found = candidates.find((file) => existsSync(file));
  if (!found) throw new Error('The canonicalize package is not installed (npm install canonicalize)');
  return found;
}
