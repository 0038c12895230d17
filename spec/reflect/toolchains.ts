import fs from 'node:fs';
import path from 'node:path';
import { transformSync as swcTransformSync } from '@swc/core';
import { transformSync } from 'esbuild';
import ts from 'typescript';

/** One way of compiling TypeScript decorators: its name and how it turns a source file into CommonJS. */
export interface Toolchain {
  readonly name: string;
  /** Whether the compiler emits `design:type`. */
  readonly emitsDesignType: boolean;
  compile(source: string, fileName: string): string;
}

/**
 * How class fields are emitted: assigned in the constructor (`useDefineForClassFields: false`) or defined (`true`,
 * ES2022's own semantics).
 */
export type FieldSemantics = 'assign' | 'define';

/**
 * tsc's `transpileModule` (what ts-jest and ts-node with `transpileOnly` run), target ES2022. Legacy
 * decorators assign fields unless `fields` says otherwise; standard ones keep the target's default (define).
 */
export function tsc(
  experimentalDecorators: boolean,
  fields: FieldSemantics | undefined = experimentalDecorators ? 'assign' : undefined,
): (source: string, fileName: string) => string {
  return (source, fileName) =>
    ts.transpileModule(source, {
      fileName,
      compilerOptions: {
        module: ts.ModuleKind.CommonJS,
        target: ts.ScriptTarget.ES2022,
        experimentalDecorators,
        emitDecoratorMetadata: experimentalDecorators,
        ...(fields === undefined ? {} : { useDefineForClassFields: fields === 'define' }),
      },
    }).outputText;
}

/** esbuild (tsx, vite, vitest), target es2022; `fields` unset leaves esbuild's default. */
export function esbuild(
  experimentalDecorators: boolean,
  fields?: FieldSemantics,
): (source: string, fileName: string) => string {
  return (source, fileName) =>
    transformSync(source, {
      loader: 'ts',
      format: 'cjs',
      target: 'es2022',
      sourcefile: fileName,
      tsconfigRaw: {
        compilerOptions: {
          experimentalDecorators,
          emitDecoratorMetadata: experimentalDecorators,
          ...(fields === undefined ? {} : { useDefineForClassFields: fields === 'define' }),
        },
      },
    }).code;
}

/**
 * swc: legacy decorators (with `decoratorMetadata` it emits `design:type` as tsc does, without it none) or TC39
 * standard ones (2023-11).
 */
export function swc(
  decorators: 'legacy' | 'legacy with metadata' | 'standard',
  fields?: FieldSemantics,
): (source: string, fileName: string) => string {
  return (source, fileName) =>
    swcTransformSync(source, {
      filename: fileName,
      swcrc: false,
      configFile: false,
      module: { type: 'commonjs' },
      jsc: {
        target: 'es2022',
        parser: { syntax: 'typescript', decorators: true },
        transform: {
          ...(decorators === 'standard'
            ? { decoratorVersion: '2023-11' as const }
            : { legacyDecorator: true, decoratorMetadata: decorators === 'legacy with metadata' }),
          ...(fields === undefined ? {} : { useDefineForClassFields: fields === 'define' }),
        },
      },
    }).code;
}

/** Every `.ts` file under `directory`, recursively. */
export function typeScriptFiles(directory: string): string[] {
  return fs
    .readdirSync(directory, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** Compiles each of `files` (under `root`) with `compile` into the same relative place under `outDir`, as `.js`. */
export function compileTree(
  compile: (source: string, fileName: string) => string,
  root: string,
  files: readonly string[],
  outDir: string,
): void {
  for (const file of files) {
    const output = path.join(outDir, path.relative(root, file)).replace(/\.ts$/, '.js');
    fs.mkdirSync(path.dirname(output), { recursive: true });
    fs.writeFileSync(output, compile(fs.readFileSync(file, 'utf8'), file));
  }
}
