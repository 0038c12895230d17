/**
 * Worst-case cost of validating model arguments inside the limits (8 MiB, 50,000 values, depth
 * 64), each case in a fresh process (see `validation-case.ts`): CPU milliseconds of decoding plus
 * schema validation, and every MiB allocated meanwhile (an upper bound of the peak extra memory).
 * Targets: at most 250 ms and 64 MiB per call. The baseline is one pass over the input measured in
 * the same process (`Buffer.byteLength` of the text, `JSON.stringify` of an object).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { VALIDATION_CASES } from './validation-cases';

const TARGET_MS = 250;
const TARGET_MIB = 64;

interface CaseResult {
  readonly name: string;
  readonly cpuMs: number;
  readonly wallMs: number;
  readonly baselineCpuMs: number;
  readonly allocatedMiB: number;
  readonly outcome: string;
}

function runCase(name: string): CaseResult {
  const child = spawnSync(
    process.execPath,
    [
      '--expose-gc',
      '--max-semi-space-size=1024',
      '-r',
      'ts-node/register/transpile-only',
      join(__dirname, 'validation-case.ts'),
      name,
    ],
    { encoding: 'utf8', env: { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true' }, maxBuffer: 1 << 20 },
  );
  if (child.status !== 0) {
    const reason = /^\w*Error: .*$/m.exec(child.stderr)?.[0] ?? `exit ${child.status}`;
    return { name, cpuMs: NaN, wallMs: NaN, baselineCpuMs: NaN, allocatedMiB: NaN, outcome: `case failed: ${reason}` };
  }
  return JSON.parse(child.stdout.trim().split('\n').pop()!) as CaseResult;
}

/** Prints the validation figures, one line per worst case, and whether each met the targets. */
export default async function validationBench(): Promise<void> {
  const rows: Record<string, string>[] = [];
  const verdicts: string[] = [];
  for (const { name } of VALIDATION_CASES) {
    const result = runCase(name);
    const met = result.cpuMs <= TARGET_MS && result.allocatedMiB <= TARGET_MIB; // NaN (a failed case) is not met
    rows.push({
      case: name,
      outcome: result.outcome,
      'CPU ms': result.cpuMs.toFixed(1),
      'wall ms': result.wallMs.toFixed(1),
      'MiB allocated': Math.max(0, result.allocatedMiB).toFixed(1),
      'baseline CPU ms': result.baselineCpuMs.toFixed(1),
      ratio: (result.cpuMs / Math.max(result.baselineCpuMs, 0.001)).toFixed(1) + 'x',
    });
    verdicts.push(
      `${met ? 'met' : 'NOT MET'}: ${name}: ${result.cpuMs.toFixed(1)} ms (<= ${TARGET_MS}), ${Math.max(0, result.allocatedMiB).toFixed(1)} MiB (<= ${TARGET_MIB})`,
    );
  }
  console.table(rows);
  for (const verdict of verdicts) console.log(verdict);
}
