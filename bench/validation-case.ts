/**
 * One worst case of `validation.bench.ts`, run in a fresh process:
 * `node --expose-gc --max-semi-space-size=1024 -r ts-node/register/transpile-only bench/validation-case.ts NAME`.
 * With a young generation that large no garbage is collected during the call, so the growth of the
 * heap (plus external memory) over the call is every byte it allocated: an upper bound of its peak
 * extra memory. Times are CPU milliseconds of the process (user + system, all threads), which a
 * shared machine inflates less than wall time; wall time is printed beside them. Prints one JSON
 * line: `{ name, cpuMs, wallMs, baselineCpuMs, allocatedMiB, outcome }`.
 */
import { compileInputValidator } from '../lib/validation';
import { JsonSchema } from '../lib';
import { decodeToolArguments } from '../lib/validation/decode-arguments';
import { VALIDATION_CASES } from './validation-cases';

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}

/** Decoding and validation as the runner does them for one tool call. */
function validateCall(input: unknown, schema: JsonSchema): string {
  const decoded = decodeToolArguments(input);
  if (!decoded.ok) return `refused: ${decoded.issues.map((issue) => issue.keyword).join(',')}`;
  const issues = compileInputValidator(schema)(decoded.value);
  return issues.length === 0 ? 'valid' : `invalid: ${issues.map((issue) => issue.keyword).join(',')}`;
}

function main(): void {
  const name = process.argv[2];
  const found = VALIDATION_CASES.find((c) => c.name === name);
  if (found === undefined) throw new Error(`no case ${name}`);
  compileInputValidator(found.schema);
  validateCall('{}', found.schema);
  const input = found.input();
  // Text reaches a tool call flat (from a parser or a socket), never as a rope of concatenations.
  if (typeof input === 'string') Buffer.byteLength(input);
  // One pass over the input: the bytes of the text, or an object's JSON text.
  const baseline = (): unknown => (typeof input === 'string' ? Buffer.byteLength(input) : JSON.stringify(input));
  if (global.gc === undefined) throw new Error('run with --expose-gc');
  global.gc();
  const before = allocated();
  let outcome = '';
  const first = timed(() => (outcome = validateCall(input, found.schema)));
  const allocatedBytes = allocated() - before;
  const times = [first, timed(() => validateCall(input, found.schema)), timed(() => validateCall(input, found.schema))];
  const baselines = [timed(baseline), timed(baseline), timed(baseline)];
  console.log(
    JSON.stringify({
      name,
      cpuMs: median(times.map((t) => t.cpuMs)),
      wallMs: median(times.map((t) => t.wallMs)),
      baselineCpuMs: median(baselines.map((t) => t.cpuMs)),
      allocatedMiB: allocatedBytes / 1024 / 1024,
      outcome,
    }),
  );
}

function timed(fn: () => unknown): { cpuMs: number; wallMs: number } {
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  fn();
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  const used = process.cpuUsage(cpu);
  return { cpuMs: (used.user + used.system) / 1000, wallMs };
}

function allocated(): number {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external;
}

main();
