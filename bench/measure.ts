import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Result of {@link measure}: CPU nanoseconds per operation (median of rounds). */
export interface Measurement {
  readonly name: string;
  readonly nsPerOp: number;
  /** CPU nanoseconds per operation of each round, in the order the rounds ran (from {@link measureTogether}). */
  readonly rounds?: readonly number[];
}

/**
 * A ratio between two cases of one {@link measureTogether} group: the median of the per-round ratios, and their range.
 */
export interface PairedRatio {
  readonly median: number;
  readonly min: number;
  readonly max: number;
}

/**
 * The ratio of the fastest round of `measured` to the fastest round of `baseline`. On a shared machine
 * the load only ever adds time to a round, so each case's least disturbed round is the closest to its
 * cost (the reasoning of Python's `timeit`); this ratio moves much less between runs than the medians do.
 * Falls back to the ratio of the medians without per-round figures.
 */
export function ratioOfFastestRounds(measured: Measurement, baseline: Measurement): number {
  const a = measured.rounds;
  const b = baseline.rounds;
  if (a === undefined || b === undefined || a.length === 0 || b.length === 0)
    return measured.nsPerOp / baseline.nsPerOp;
  return Math.min(...a) / Math.min(...b);
}

/**
 * The ratio of `measured` to `baseline`, round by round: rounds of one group run in turn, so round i of
 * each case ran under the same load; the median of those ratios moves less with the machine's load than
 * the ratio of the two medians does. Falls back to the ratio of the medians without per-round figures.
 */
export function pairedRatio(measured: Measurement, baseline: Measurement): PairedRatio {
  const a = measured.rounds;
  const b = baseline.rounds;
  if (a === undefined || b === undefined || a.length !== b.length || a.length === 0) {
    const ratio = measured.nsPerOp / baseline.nsPerOp;
    return { median: ratio, min: ratio, max: ratio };
  }
  const ratios = a.map((ns, round) => ns / b[round]).sort((x, y) => x - y);
  return { median: ratios[Math.floor(ratios.length / 2)], min: ratios[0], max: ratios[ratios.length - 1] };
}

/**
 * Times `fn` over `rounds` rounds of `iterations` calls after a warm-up and returns the median
 * nanoseconds per call. Awaits `fn` when it returns a promise. The time is the process's CPU time
 * (user + system, garbage collection included), not wall time, so other processes sharing the
 * machine do not skew the ratios.
 */
export async function measure(name: string, fn: () => unknown, iterations = 20_000, rounds = 7): Promise<Measurement> {
  for (let i = 0; i < Math.min(iterations, 5_000); i++) await fn();
  const samples: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const start = process.cpuUsage();
    for (let i = 0; i < iterations; i++) await fn();
    const spent = process.cpuUsage(start);
    samples.push(((spent.user + spent.system) * 1000) / iterations);
  }
  samples.sort((a, b) => a - b);
  return { name, nsPerOp: samples[Math.floor(samples.length / 2)] };
}

/** `global.gc`, exposed at run time when node was started without `--expose-gc`. */
export function fullGc(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed !== undefined) return exposed;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** Waits 10 ms of wall time (no CPU spent here) for background work such as concurrent sweeping. */
function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 10));
}

/**
 * Prints a table of measurements with their ratio to `baseline`: the median of the per-round ratios
 * (see {@link pairedRatio}) and, for a group measured together, their range over the rounds and the
 * ratio of the fastest rounds (see {@link ratioOfFastestRounds}).
 */
export function report(baseline: Measurement, others: readonly Measurement[]): void {
  const rows = [baseline, ...others].map((m) => {
    const ratio = pairedRatio(m, baseline);
    return {
      case: m.name,
      'us/op': (m.nsPerOp / 1000).toFixed(3),
      ratio: ratio.median.toFixed(2) + 'x',
      'rounds range': `${ratio.min.toFixed(2)}-${ratio.max.toFixed(2)}x`,
      'fastest rounds': ratioOfFastestRounds(m, baseline).toFixed(2) + 'x',
    };
  });
  console.table(rows);
}

/**
 * What {@link measureTogether} times: the process's CPU time (the default), or wall time, for cases whose
 * cost is partly spent waiting (an fsync, another process such as a database server).
 */
export type MeasuredClock = 'cpu' | 'wall';

/** Nanoseconds since `start` on `clock`. */
function elapsedNs(clock: MeasuredClock, start: { cpu: NodeJS.CpuUsage; wall: bigint }): number {
  if (clock === 'wall') return Number(process.hrtime.bigint() - start.wall);
  const spent = process.cpuUsage(start.cpu);
  return (spent.user + spent.system) * 1000;
}

/**
 * {@link measure} for several cases at once, their rounds taken in turn (round 1 of every case, then
 * round 2, ...), so a change of load on a shared machine weighs on every case alike and the ratios
 * between them hold. Each round starts after a full GC and up to 5,000 untimed calls of its case
 * (steady state, without the garbage of the case before). Returns the measurements in the order of `cases`.
 * `clock` picks CPU time (default) or wall time.
 */
export async function measureTogether(
  cases: ReadonlyArray<readonly [name: string, fn: () => unknown]>,
  iterations = 20_000,
  rounds = 7,
  clock: MeasuredClock = 'cpu',
): Promise<Measurement[]> {
  const warmCalls = Math.min(iterations, 5_000);
  for (const [, fn] of cases) for (let i = 0; i < warmCalls; i++) await fn();
  const samples = cases.map((): number[] => []);
  const gc = fullGc();
  for (let round = 0; round < rounds; round++)
    for (const [index, [, fn]] of cases.entries()) {
      // A full collection first (not timed): no case pays for the garbage the case before left. Then
      // a short idle wait, so the collector's background threads (concurrent sweeping, counted in
      // the process's CPU time) finish before the clock starts instead of billing the next case.
      gc();
      await settle();
      // Then untimed calls of the same case: the first few thousand calls after a forced full GC cost
      // up to twice their steady-state price for code that allocates per call (measured: a runner
      // dispatch 6.6-7.4 us for a round right after the GC, 3.4-3.7 us after 5,000 calls), while a
      // plain function barely changes, so timing right after the GC measured the collector's
      // aftermath, not the case. Each case still pays only for its own garbage.
      for (let i = 0; i < warmCalls; i++) await fn();
      const start = { cpu: process.cpuUsage(), wall: process.hrtime.bigint() };
      for (let i = 0; i < iterations; i++) await fn();
      samples[index].push(elapsedNs(clock, start) / iterations);
    }
  return cases.map(([name], index) => {
    const rounds = samples[index];
    const sorted = [...rounds].sort((a, b) => a - b);
    return { name, nsPerOp: sorted[Math.floor(sorted.length / 2)], rounds };
  });
}
