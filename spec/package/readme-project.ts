import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root, run } from './packed-package';

/**
 * The packages the README's examples import besides wuwe, as a reader installs them (the README says
 * which). Their versions are those of the repository's lockfile, so npm finds them in its cache.
 */
export const README_EXAMPLE_PACKAGES = [
  '@ai-sdk/openai',
  '@anthropic-ai/sdk',
  '@modelcontextprotocol/sdk',
  '@modelcontextprotocol/server-filesystem',
  '@nestjs/common',
  '@nestjs/core',
  '@opentelemetry/api',
  // docs/ui-stream.md reads the UI message stream with the AI SDK itself.
  'ai',
  // The AI SDK's declarations import `json-schema`'s types without installing them (the README says so).
  '@types/json-schema',
  'js-tiktoken',
  'openai',
  'pg',
  'pg-boss',
  'rxjs',
  'tsyringe',
  'zod',
] as const;

function lockedVersion(name: string): string {
  return (JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string })
    .version;
}

/**
 * A project for the README's examples: the packed tarball, `reflect-metadata` and the example packages
 * installed by npm (from its cache where it can), `@types/node` and the native `better-sqlite3` build
 * taken from the repository rather than fetched or built again.
 */
export function installReadmeProject(project: string, tarball: string): void {
  mkdirSync(project, { recursive: true });
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'readme-examples', version: '1.0.0', private: true }),
  );
  const packages = README_EXAMPLE_PACKAGES.map((name) => `${name}@${lockedVersion(name)}`);
  run(
    'npm',
    [
      'install',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      tarball,
      'reflect-metadata',
      ...packages,
    ],
    project,
  );
  for (const name of ['@types/node', 'better-sqlite3']) {
    if (existsSync(join(project, 'node_modules', name))) continue;
    mkdirSync(join(project, 'node_modules', name, '..'), { recursive: true });
    symlinkSync(join(root, 'node_modules', name), join(project, 'node_modules', name), 'dir');
  }
}

/** What a README example finds in its working directory: the files and directories the examples name. */
export function writeExampleFiles(directory: string, pngBase64: string): void {
  for (const name of ['data', 'agent-data', 'docs']) mkdirSync(join(directory, name), { recursive: true });
  writeFileSync(join(directory, 'data', 'notes.txt'), 'Deploy on Fridays: never.\n');
  writeFileSync(join(directory, 'docs', 'guide.md'), '# Guide\n\n## Deploying\n\nDeploy with `make deploy`.\n');
  writeFileSync(join(directory, 'photo.png'), Buffer.from(pngBase64, 'base64'));
  writeFileSync(join(directory, 'login.png'), Buffer.from(pngBase64, 'base64'));
  writeFileSync(
    join(directory, 'report.pdf'),
    '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
  );
}

/**
 * The program that runs the compiled examples in one Node process, one after another, each in its own
 * working directory and with its own time limit; it writes what failed to a JSON report and exits.
 * An example's late failure (a rejection nobody awaited) is charged to the example that was running.
 */
export const RUN_EXAMPLES_SCRIPT = `
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { inspect } from 'node:util';

const [listFile, reportFile, timeoutMs] = process.argv.slice(2);
const examples = JSON.parse(readFileSync(listFile, 'utf8'));
const failures = {};
let current = 'before the first example';
const fail = (name, problem) => (failures[name] ??= []).push(problem instanceof Error ? inspect(problem) : String(problem));
process.on('unhandledRejection', (reason) => fail(current, 'unhandled rejection: ' + inspect(reason)));
process.on('uncaughtException', (error) => fail(current, 'uncaught exception: ' + inspect(error)));
for (const example of examples) {
  current = example.name;
  process.chdir(example.cwd);
  let timer;
  const limit = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error('did not finish within ' + timeoutMs + ' ms')), Number(timeoutMs));
  });
  try {
    await Promise.race([import(pathToFileURL(example.file).href), limit]);
  } catch (error) {
    fail(example.name, error);
  } finally {
    clearTimeout(timer);
  }
  await new Promise((resolve) => setTimeout(resolve, 20));
}
writeFileSync(reportFile, JSON.stringify(failures));
process.exit(0);
`;
