/**
 * Runs every `bench/*.bench.ts` file in turn (or those whose name contains the first argument that is not a `--flag`).
 * Each exports `default async function(): Promise<void>`
 * that prints its own figures as ratios to baselines measured in the same run.
 */
import 'reflect-metadata';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

async function main(): Promise<void> {
  const only = process.argv.slice(2).find((arg) => !arg.startsWith('--'));
  const files = readdirSync(__dirname)
    .filter((file) => file.endsWith('.bench.ts') && (only === undefined || file.includes(only)))
    .sort();
  for (const file of files) {
    console.log(`\n== ${file}`);
    const module = (await import(join(__dirname, file))) as { default: () => Promise<void> };
    await module.default();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
