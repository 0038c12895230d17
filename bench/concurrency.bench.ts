/**
 * Many runs in one process (`npm run bench -- concurrency`):
 * - (c1) 1,000 durable runs started at once on one SqliteRunStore (file, WAL), each calling a tool that waits
 *   100 ms: the event loop's delay (node:perf_hooks monitorEventLoopDelay, 1 ms resolution) while they run,
 *   its p99 and max, the most runs inside the tool at once, and the wall time of the batch.
 * - (c2) the heap per in-flight run: the same 1,000 runs, their tool held until all 1,000 are inside it, the
 *   heap after a full GC then minus the heap after a full GC before they started, over 1,000.
 * - (c3) the streaming overhead per event with 1,000 concurrent `stream()` consumers against one consumer
 *   at a time: the marginal CPU time of an event (runs of 16 deltas minus runs of 4, over the extra events),
 *   each mode a batch of 1,000 runs, measured together (`measureTogether`).
 * Then `target 3 ...: met / NOT MET` lines: p99 at most 20 ms, heap per in-flight run at most 64 KiB, the
 * per-event overhead of 1,000 consumers at most 1.2x one consumer's. By default 200 runs and consumers (under
 * two minutes); `--full` runs the target's 1,000 and more rounds of (c3).
 */
import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Field, LlmAgentRunner, LlmAgentStreamEvent, ReflectedToolProvider, ScriptedModelClient, Tool } from '../lib';
import { SqliteRunStore } from '../lib/durable/sqlite';
import { fullGc, measureTogether, ratioOfFastestRounds } from './measure';

const full = process.argv.includes('--full');
/** 1,000 with `--full` (the target's size; a few minutes on SQLite with synchronous commits), 200 by default. */
const runsInFlight = full ? 1_000 : 200;
const toolDelayMs = 100;

/** How the slow tool waits: a timer of `toolDelayMs`, or a gate the bench opens. */
const slowTool = { entered: 0, inside: 0, mostInside: 0, gate: undefined as Promise<void> | undefined };

@Tool({ name: 'slow_lookup', description: 'Look something up slowly.' })
class SlowLookup {
  @Field({ description: 'Key.' }) key!: string;
  async invoke(): Promise<{ key: string; found: boolean }> {
    slowTool.entered += 1;
    slowTool.inside += 1;
    slowTool.mostInside = Math.max(slowTool.mostInside, slowTool.inside);
    await (slowTool.gate ?? new Promise((resolve) => setTimeout(resolve, toolDelayMs)));
    slowTool.inside -= 1;
    return { key: this.key, found: true };
  }
}

const prompt = 'Look up the key k1.';

function slowRunner(): LlmAgentRunner {
  const model = new ScriptedModelClient(
    [{ toolCalls: [{ id: 'call_1', name: 'slow_lookup', arguments: '{"key":"k1"}' }] }, { text: 'Found k1.' }],
    { whenExhausted: 'repeat', recordRequests: false },
  );
  return new LlmAgentRunner(model, new ReflectedToolProvider([SlowLookup]));
}

async function inFlight(): Promise<{
  p99Ms: number;
  maxMs: number;
  mostInside: number;
  wallMs: number;
  heapPerRun: number;
}> {
  const directory = mkdtempSync(join(tmpdir(), 'wuwe-concurrency-'));
  const store = new SqliteRunStore(join(directory, 'runs.db'));
  const runner = slowRunner();
  const gc = fullGc();
  try {
    await runner.complete(prompt, { store });
    // (c1) the 100 ms tool, the event loop watched.
    slowTool.mostInside = 0;
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    const started = Date.now();
    const results = await Promise.all(Array.from({ length: runsInFlight }, () => runner.complete(prompt, { store })));
    const wallMs = Date.now() - started;
    delay.disable();
    if (results.some((result) => result.text !== 'Found k1.')) throw new Error('a run did not finish');
    const mostInside = slowTool.mostInside;
    // (c2) the same runs held inside the tool, the heap measured while all of them are in flight.
    let open!: () => void;
    slowTool.gate = new Promise<void>((resolve) => (open = resolve));
    slowTool.entered = 0;
    gc();
    const heapBefore = process.memoryUsage().heapUsed;
    const held = Promise.all(Array.from({ length: runsInFlight }, () => runner.complete(prompt, { store })));
    while (slowTool.entered < runsInFlight) await new Promise((resolve) => setTimeout(resolve, 5));
    gc();
    const heapPerRun = (process.memoryUsage().heapUsed - heapBefore) / runsInFlight;
    open();
    await held;
    slowTool.gate = undefined;
    return { p99Ms: delay.percentile(99) / 1e6, maxMs: delay.max / 1e6, mostInside, wallMs, heapPerRun };
  } finally {
    await store.close();
    rmSync(directory, { recursive: true, force: true });
  }
}

@Tool({ name: 'get_weather', description: 'Get the weather.' })
class GetWeather {
  @Field({ description: 'City name.' }) city!: string;
  invoke(): { city: string; degrees: number } {
    return { city: this.city, degrees: 22 };
  }
}

function streamingRunner(streamDeltas: number): LlmAgentRunner {
  const model = new ScriptedModelClient(
    [
      { toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Tokyo"}' }] },
      { text: 'It is 22 degrees in Tokyo, with a light breeze from the bay.' },
    ],
    { whenExhausted: 'repeat', recordRequests: false, streamDeltas, streamPauses: false },
  );
  return new LlmAgentRunner(model, new ReflectedToolProvider([GetWeather]));
}

async function consume(runner: LlmAgentRunner): Promise<number> {
  let events = 0;
  for await (const _event of runner.stream("What's the weather in Tokyo?") as AsyncIterable<LlmAgentStreamEvent>)
    events++;
  return events;
}

/** (c3) per-event CPU time, one consumer at a time against 1,000 at once; returns their ratio. */
async function streamingConsumers(): Promise<number> {
  const few = streamingRunner(4);
  const many = streamingRunner(16);
  const extraEvents = (await consume(many)) - (await consume(few));
  const oneAtATime = (runner: LlmAgentRunner) => async () => {
    for (let i = 0; i < runsInFlight; i++) await consume(runner);
  };
  const allAtOnce = (runner: LlmAgentRunner) => () =>
    Promise.all(Array.from({ length: runsInFlight }, () => consume(runner)));
  const [singleFew, singleMany, concurrentFew, concurrentMany] = await measureTogether(
    [
      ['one consumer at a time, 4 deltas', oneAtATime(few)],
      ['one consumer at a time, 16 deltas', oneAtATime(many)],
      [`${runsInFlight} consumers at once, 4 deltas`, allAtOnce(few)],
      [`${runsInFlight} consumers at once, 16 deltas`, allAtOnce(many)],
    ],
    1,
    full ? 9 : 5,
  );
  // The fastest rounds of each case (load only adds time), the marginal cost of the extra events.
  const fastest = (m: { rounds?: readonly number[]; nsPerOp: number }) => Math.min(...(m.rounds ?? [m.nsPerOp]));
  const perEvent = (few: number, many: number) => (many - few) / (extraEvents * runsInFlight);
  const single = perEvent(fastest(singleFew), fastest(singleMany));
  const concurrent = perEvent(fastest(concurrentFew), fastest(concurrentMany));
  console.table(
    [singleFew, singleMany, concurrentFew, concurrentMany].map((m) => ({
      case: m.name,
      'us/run (CPU)': (m.nsPerOp / runsInFlight / 1000).toFixed(2),
      'fastest rounds to one at a time':
        ratioOfFastestRounds(m, m.name.includes('16') ? singleMany : singleFew).toFixed(2) + 'x',
    })),
  );
  console.log(
    `per-event overhead: one consumer ${(single / 1000).toFixed(3)} us, ${runsInFlight} consumers ${(concurrent / 1000).toFixed(3)} us`,
  );
  return concurrent / single;
}

export default async function concurrency(): Promise<void> {
  const flight = await inFlight();
  console.log(
    `(c1) ${runsInFlight} durable runs (SQLite) with a ${toolDelayMs} ms tool: event-loop delay p99 ${flight.p99Ms.toFixed(1)} ms, ` +
      `max ${flight.maxMs.toFixed(1)} ms; at most ${flight.mostInside} inside the tool at once; ${flight.wallMs} ms for the batch`,
  );
  console.log(
    `(c2) heap per in-flight run (${runsInFlight} held in the tool): ${(flight.heapPerRun / 1024).toFixed(1)} KiB`,
  );
  const streamRatio = await streamingConsumers();
  console.log(
    `target 3 (event loop): p99 delay with ${runsInFlight} durable runs in flight = ${flight.p99Ms.toFixed(1)} ms (at most 20 ms): ${flight.p99Ms <= 20 ? 'met' : 'NOT MET'}`,
  );
  console.log(
    `target 3 (heap): per in-flight run = ${(flight.heapPerRun / 1024).toFixed(1)} KiB (at most 64 KiB): ${flight.heapPerRun <= 64 * 1024 ? 'met' : 'NOT MET'}`,
  );
  console.log(
    `target 3 (streams): per-event overhead of ${runsInFlight} consumers / one consumer = ${streamRatio.toFixed(2)}x, fastest rounds (at most 1.2x): ${streamRatio > 0 && streamRatio <= 1.2 ? 'met' : streamRatio > 0 ? 'NOT MET' : 'NOT MET (not measurable: the load outweighed the extra events; run with --full)'}`,
  );
}
