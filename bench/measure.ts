/** Result of {@link measure}: CPU nanoseconds per operation (median of rounds). */
export interface Measurement {
  readonly name: string;
  readonly nsPerOp: number;
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

/** Prints a table of measurements with their ratio to `baseline`. */
export function report(baseline: Measurement, others: readonly Measurement[]): void {
  const rows = [baseline, ...others].map((m) => ({
    case: m.name,
    'us/op': (m.nsPerOp / 1000).toFixed(3),
    ratio: (m.nsPerOp / baseline.nsPerOp).toFixed(2) + 'x',
  }));
  console.table(rows);
}
