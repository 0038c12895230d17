import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LlmAgentRunOptions } from '../runner/run-options';
import { LlmAgentRunResult } from '../runner/run-result';
import { CliError } from './cli-error';

/** What `wuwe resume` needs from an agent module: a runner that can resume a stored run. */
export interface ResumableRunner {
  resume(runId: string, options?: LlmAgentRunOptions): Promise<LlmAgentRunResult>;
}

/** A loaded agent module: its runner and the run options it asks for (the store is the command line's). */
export interface LoadedAgent {
  readonly runner: ResumableRunner;
  readonly runOptions: LlmAgentRunOptions;
}

/**
 * Loads the module given to `--agent` (a path relative to `cwd`, or a package name) and takes its runner:
 * the export `runner`, the default export, or what `createRunner()` returns (awaited). The optional export
 * `runOptions` (an object) is passed to `resume()`. Throws `not_found` when the module cannot be found and
 * `usage` when it exports no runner; an error the module throws while loading propagates.
 */
export async function loadAgent(specifier: string, cwd: string): Promise<LoadedAgent> {
  const file = resolveModule(specifier, cwd);
  const exports = await importModule(file);
  const candidate =
    exports.runner ??
    (typeof exports.createRunner === 'function' ? await exports.createRunner() : undefined) ??
    exports.default?.runner ??
    exports.default;
  if (!isRunner(candidate))
    throw new CliError(
      'usage',
      `agent module '${specifier}' exports no runner: export 'runner' (an LlmAgentRunner), a default runner, or 'createRunner()'`,
    );
  const runOptions = exports.runOptions ?? exports.default?.runOptions ?? {};
  if (typeof runOptions !== 'object' || runOptions === null)
    throw new CliError('usage', `'runOptions' of agent module '${specifier}' must be an object`);
  return { runner: candidate, runOptions: runOptions as LlmAgentRunOptions };
}

function resolveModule(specifier: string, cwd: string): string {
  const local = isAbsolute(specifier) || specifier.startsWith('.') ? resolve(cwd, specifier) : undefined;
  try {
    return require.resolve(local ?? specifier, { paths: [cwd] });
  } catch {
    const where = local !== undefined && !existsSync(local) ? ` (${local} does not exist)` : '';
    throw new CliError('not_found', `cannot find agent module '${specifier}'${where}`);
  }
}

/** `require()`s the file; an ES module is imported instead. */
async function importModule(file: string): Promise<Record<string, any>> {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the module is named at run time
    return require(file) as Record<string, any>;
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ERR_REQUIRE_ESM') throw error;
    // A real dynamic import: TypeScript would compile `import()` into `require()` under CommonJS.
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- a constant body, no input is evaluated
    const dynamicImport = new Function('url', 'return import(url)') as (url: string) => Promise<Record<string, any>>;
    return dynamicImport(pathToFileURL(file).href);
  }
}

function isRunner(value: unknown): value is ResumableRunner {
  return typeof value === 'object' && value !== null && typeof (value as { resume?: unknown }).resume === 'function';
}
