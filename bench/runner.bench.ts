/**
 * Runner overhead, as ratios to baselines measured in the same run: the floor is what any runner must
 * do per call ("JSON.parse + precompiled ajv + awaited call" of the same tool function).
 * (a) one dispatch through `runner.invokeToolCall` of a reflected tool class under the default
 * contract; (a2) the same path with every policy on (deadline, output validation, retry contract);
 * (b) a full two-step `complete()` on ScriptedModelClient; (b2) the same with a new runner per run.
 * Beside them, not targets: the floor plus the least the contract adds (the result rendered as the
 * Tool message and its tokens estimated), and a hand-written minimum of a whole default-contract call
 * with no runner (`weatherMinimum`: the library's public parse, outcome and estimator, four clock
 * reads), printed with (a)'s ratio to it: the least a call can cost, and what the runner adds to it.
 * A target is judged on the ratio of each case's fastest round (`ratioOfFastestRounds`: load only
 * adds time); the median and range of the per-round ratios are printed beside it.
 * Then the heap after a full GC over many `complete()` runs (`--full`: 1,000,000; default 20,000).
 * The cases are timed in alternating rounds with the floor (`measureTogether`: each round after a
 * full GC and 5,000 untimed calls of its case), so the ratios hold on a shared machine whose load
 * changes; one floor, measured once, is the baseline of both targets. One line per target says met / not met.
 * `bench/hot-loop.ts` runs one case in a plain loop (for profiles), `bench/alloc-profile.ts` shows
 * what a case allocates per call.
 */
import { descriptorFromLlmTool } from '../lib/contract';
import { fallbackTextTokenEstimator } from '../lib/projection';
import { LlmAgentRunner, ScriptedModelClient, ToolDescriptor, ToolInvocation, ToolProvider } from '../lib';
import { fullGc, measureTogether, PairedRatio, pairedRatio, ratioOfFastestRounds, report } from './measure';
import {
  prompt,
  weatherAsync,
  weatherCall,
  weatherFloor,
  weatherInputSchema,
  weatherMinimum,
  weatherRunners,
  weatherTurns,
} from './weather-tool';

const inputSchema = weatherInputSchema;
const outputSchema = {
  type: 'object',
  properties: { city: { type: 'string' }, degrees: { type: 'number' } },
  required: ['city', 'degrees'],
  additionalProperties: false,
};

class WeatherProvider implements ToolProvider {
  private readonly descriptor: ToolDescriptor = descriptorFromLlmTool(
    { name: 'get_weather', description: 'Get the weather.', inputSchema },
    { outputSchema, outputValidation: 'strict', timeoutMs: 5_000, sideEffect: 'read', idempotency: 'idempotent' },
  );
  listTools(): readonly ToolDescriptor[] {
    return [this.descriptor];
  }
  invokeTool(invocation: ToolInvocation): unknown {
    return weatherAsync(invocation.arguments as { city: string });
  }
}

/**
 * One target's line: the ratio of the fastest rounds (what decides met / not met), then the median and
 * range of the per-round ratios, which show how much the machine's load moved the rounds.
 */
function line(name: string, fastest: number, paired: PairedRatio, limit: number): string {
  const rounds = `median of per-round ratios ${paired.median.toFixed(2)}x, range ${paired.min.toFixed(2)}-${paired.max.toFixed(2)}x`;
  return `target ${name}: ${fastest.toFixed(2)}x the floor, fastest rounds (${rounds}; limit ${limit}x): ${fastest <= limit ? 'met' : 'NOT MET'}`;
}

export default async function runnerBench(): Promise<void> {
  const { reflected, runner, bound } = weatherRunners();
  const call = weatherCall;
  const everyPolicy = new LlmAgentRunner(new ScriptedModelClient([]), new WeatherProvider());
  const floorCase = weatherFloor();
  // Not a target: what the contract adds to the floor at the very least (the result becomes the model's
  // Tool message, and the projection must know its size in tokens), so the targets' ratios can be read against it.
  const floorAndMessageCase = async (): Promise<unknown> => {
    const result = await floorCase();
    const content = JSON.stringify(result);
    return fallbackTextTokenEstimator.estimateTokens(content);
  };
  // One group, one floor for both targets: every case runs the same number of calls per round, in
  // rounds taken in turn. The floor used to be measured twice, beside (a) with 20,000 calls a round
  // and beside (b) with 5,000, and the two differed 2x in one run: a round starts right after a full
  // GC with an empty young generation, so 5,000 floor calls (about 1.5 MB of garbage) finished before
  // a single scavenge and never paid their share of collection, while 20,000 calls did; the
  // collector's background sweeping after that GC was also billed to the round (now waited out in
  // `measureTogether`). Rounds of 20,000 calls pay several scavenges each, so the floor is its
  // steady-state cost and one measurement serves both targets.
  const [floor, raw, floorAndMessage, minimum, dispatch, strict, complete, bindAndComplete] = await measureTogether([
    ['floor: JSON.parse + precompiled ajv + awaited call', floorCase],
    ['raw awaited tool call', async () => weatherAsync(JSON.parse(call.arguments))],
    ['floor + the Tool message rendered (JSON.stringify) and its tokens estimated', floorAndMessageCase],
    ['hand-written minimum of a default-contract call (no runner)', weatherMinimum()],
    [
      '(a) runner.invokeToolCall, reflected tool, default contract',
      () => runner.invokeToolCall(call, { runId: 'bench' }),
    ],
    ['(a2) runner.invokeToolCall, every policy on', () => everyPolicy.invokeToolCall(call, { runId: 'bench' })],
    ['(b) complete(): two-step run on ScriptedModelClient', () => bound.complete(prompt)],
    [
      '(b2) new runner (bindTools) + complete()',
      () => new LlmAgentRunner(new ScriptedModelClient(weatherTurns), reflected).complete(prompt),
    ],
  ]);
  report(floor, [raw, floorAndMessage, minimum, dispatch, strict, complete, bindAndComplete]);
  console.log(
    line(
      '(a) invokeToolCall, default contract',
      ratioOfFastestRounds(dispatch, floor),
      pairedRatio(dispatch, floor),
      3,
    ),
  );
  console.log(line('(b) two-step complete()', ratioOfFastestRounds(complete, floor), pairedRatio(complete, floor), 10));
  // Not a target: how far below the limit of (a) the work of a call can go with no runner at all, and
  // what the runner costs on top of that work.
  const least = ratioOfFastestRounds(minimum, floor);
  console.log(
    `hand-written minimum of a default-contract call: ${least.toFixed(2)}x the floor (limit of (a): 3x); ` +
      `(a) is ${ratioOfFastestRounds(dispatch, minimum).toFixed(2)}x that minimum (what the runner adds), fastest rounds`,
  );

  const runs = process.argv.includes('--full') ? 1_000_000 : 20_000;
  const gc = fullGc();
  for (let i = 0; i < 10_000; i++) await bound.complete(prompt);
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < runs; i++) await bound.complete(prompt);
  gc();
  const grown = process.memoryUsage().heapUsed - before;
  const mib = grown / 1024 / 1024;
  console.log(
    `target memory flat over ${runs.toLocaleString('en')} complete() runs (heap growth after full GC at most 1 MiB): ${mib.toFixed(3)} MiB: ${mib <= 1 ? 'met' : 'NOT MET'}`,
  );
}
