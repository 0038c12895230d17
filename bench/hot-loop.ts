/**
 * A plain loop over one runner bench case, for profiling (`node --cpu-prof`) and for steady-state
 * figures without the forced collections of `npm run bench`: prints wall and CPU microseconds per
 * call for each round.
 *
 *   npx ts-node --transpile-only bench/hot-loop.ts <floor|minimum|a|b> [calls per round] [rounds]
 *
 * `a` is `runner.invokeToolCall` of a reflected tool under the default contract, `b` a two-step
 * `complete()` on ScriptedModelClient, `floor` JSON.parse + precompiled ajv + the awaited call,
 * `minimum` the hand-written minimum of a default-contract call (the same cases as `runner.bench.ts`). Set `GC=1` (and
 * run node with `--expose-gc`) to take a
 * full collection before every round, and `WARM=<calls>` for untimed calls before each round (the
 * bench takes both: a GC, then 5,000 calls).
 */
import 'reflect-metadata';
import { prompt, weatherCall, weatherFloor, weatherMinimum, weatherRunners } from './weather-tool';

async function main(): Promise<void> {
  const which = process.argv[2] ?? 'a';
  const calls = Number(process.argv[3] ?? 100_000);
  const rounds = Number(process.argv[4] ?? 5);
  const { runner, bound } = weatherRunners();
  const cases: Record<string, () => Promise<unknown>> = {
    floor: weatherFloor(),
    minimum: weatherMinimum(),
    a: () => runner.invokeToolCall(weatherCall, { runId: 'bench' }),
    b: () => bound.complete(prompt),
  };
  const fn = cases[which];
  if (fn === undefined) throw new Error(`unknown case '${which}': floor, minimum, a or b`);
  const gc = (globalThis as { gc?: () => void }).gc;
  for (let round = 0; round < rounds; round++) {
    if (process.env.GC !== undefined && gc !== undefined) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    for (let i = 0; i < Number(process.env.WARM ?? 0); i++) await fn();
    const wall = process.hrtime.bigint();
    const cpu = process.cpuUsage();
    for (let i = 0; i < calls; i++) await fn();
    const spent = process.cpuUsage(cpu);
    const wallUs = Number(process.hrtime.bigint() - wall) / 1000 / calls;
    console.log(
      `${which}: ${wallUs.toFixed(3)} us wall, ${((spent.user + spent.system) / calls).toFixed(3)} us CPU per call`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
