/**
 * Bytes allocated per call of a runner bench case, by allocating function: V8's sampling heap
 * profiler with collected objects included (garbage is what this counts), after a warm-up.
 *
 *   npx ts-node --transpile-only bench/alloc-profile.ts <a|b> [calls]
 *   node --no-turbo-inlining -r ts-node/register/transpile-only bench/alloc-profile.ts a
 *
 * `a` is `runner.invokeToolCall` of a reflected tool, `b` a two-step `complete()` (the cases of
 * `runner.bench.ts`). Without inlining, each allocation is billed to the function that makes it
 * rather than to the optimized caller it was inlined into (the totals are about the same).
 */
import 'reflect-metadata';
import { Session } from 'node:inspector';
import { prompt, weatherCall, weatherRunners } from './weather-tool';

interface ProfileNode {
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly selfSize: number;
  readonly children: readonly ProfileNode[];
}

async function main(): Promise<void> {
  const which = process.argv[2] ?? 'a';
  const calls = Number(process.argv[3] ?? 50_000);
  const { runner, bound } = weatherRunners();
  const fn =
    which === 'b' ? () => bound.complete(prompt) : () => runner.invokeToolCall(weatherCall, { runId: 'bench' });
  for (let i = 0; i < calls; i++) await fn();
  const session = new Session();
  session.connect();
  const post = (method: string, params: object = {}): Promise<{ profile?: { head: ProfileNode } }> =>
    new Promise((resolve, reject) =>
      session.post(method, params, (error, result) =>
        error ? reject(error) : resolve(result as { profile?: { head: ProfileNode } }),
      ),
    );
  await post('HeapProfiler.enable');
  await post('HeapProfiler.startSampling', {
    samplingInterval: 128,
    includeObjectsCollectedByMinorGC: true,
    includeObjectsCollectedByMajorGC: true,
  });
  for (let i = 0; i < calls; i++) await fn();
  const { profile } = await post('HeapProfiler.stopSampling');
  const bytes = new Map<string, number>();
  let total = 0;
  const walk = (node: ProfileNode): void => {
    const frame = node.callFrame;
    const where = `${frame.functionName} ${frame.url.split('/').slice(-2).join('/')}:${frame.lineNumber + 1}`;
    if (node.selfSize > 0) bytes.set(where, (bytes.get(where) ?? 0) + node.selfSize);
    total += node.selfSize;
    node.children.forEach(walk);
  };
  walk(profile!.head);
  console.log(`${which}: about ${Math.round(total / calls)} bytes allocated per call (sampled)`);
  for (const [where, size] of [...bytes].sort((x, y) => y[1] - x[1]).slice(0, 40))
    console.log(String(Math.round(size / calls)).padStart(7), where);
  session.disconnect();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
