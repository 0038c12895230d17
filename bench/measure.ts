/** Result of {@link measure}: nanoseconds per operation (median of rounds). */
export interface Measurement {
  readonly name: string;
  readonly nsPerOp: number;
}

/**
 * Times `fn` over `rounds` rounds of `iterations` calls after a warm-up and returns the median
 * nanoseconds per call. Awaits `fn` when it returns a promise.
 */
export async function measure(name: string, fn: () => unknown, iterations = 20_000, rounds = 7): Promise<Measurement> {
  for (let i = 0; i < Math.min(iterations, 5_000); i++) await fn();
  const samples: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) await fn();
    samples.push(Number(process.hrtime.bigint() - start) / iterations);
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
