/**
 * The record chain's cases of `durable.bench.ts`: the chain's write cost per call and per run, and the cost of
 * verifying a resumed 20-call run, against the same resume with verification skipped.
 */
import { LlmAgentRunner, ReflectedToolProvider, RunStore, ScriptedModelClient, ScriptedTurn } from '../lib';
import { canonicalArgumentsSha256 } from '../lib/durable';
import { RecordChainer } from '../lib/durable/chain/record-chainer';
import { GetWeather } from './weather-tool';
import { Measurement, measure, measureTogether, ratioOfFastestRounds } from './measure';

/** Calls in a run of these cases. */
export const CALLS_PER_RUN = 20;
/** The resume criterion: verification adds at most this share to a resumed 20-call run. */
const MAX_VERIFY_SHARE = 0.1;

const calls = Array.from({ length: CALLS_PER_RUN }, (_, index) => ({
  id: `call_${index}`,
  name: 'get_weather',
  arguments: JSON.stringify({ city: `City ${index}` }),
}));
const provider = new ReflectedToolProvider([GetWeather]);
const tokyoSha256 = canonicalArgumentsSha256({ city: 'Tokyo' });

/** A model that asks for the 20 calls, then fails (`crash`: a model outage after the tools ran) or answers. */
function model(after: 'crash' | 'answer'): ScriptedModelClient {
  const turn: ScriptedTurn = (messages) => {
    if (!messages.some((message) => message.role === 'tool')) return { toolCalls: calls };
    if (after === 'crash') throw new Error('model unavailable');
    return { text: 'done' };
  };
  return new ScriptedModelClient([turn], { whenExhausted: 'repeat', recordRequests: false });
}
const completing = new LlmAgentRunner(model('answer'), provider);
const crashing = new LlmAgentRunner(model('crash'), provider);
const resuming = new LlmAgentRunner(model('answer'), provider);

/** Time spent computing chain entries (hashing, canonical JSON, digests) inside the stores' writes. */
let chainNs = 0n;
let chainEntries = 0;
const entries = RecordChainer.prototype.entries;
RecordChainer.prototype.entries = function timedEntries(this: RecordChainer, ...args: Parameters<typeof entries>) {
  const start = process.hrtime.bigint();
  const made = entries.apply(this, args);
  chainNs += process.hrtime.bigint() - start;
  chainEntries += made.length;
  return made;
};

/** The chain's part of `work`: entries appended and hashing nanoseconds per `units` (run inside `work`). */
async function chainShare(work: () => Promise<Measurement>, units: () => number) {
  const ns = chainNs;
  const count = chainEntries;
  const measured = await work();
  const done = units();
  return { measured, entries: (chainEntries - count) / done, hashNs: Number(chainNs - ns) / done };
}

/** One row of the write table: the whole write per unit, and the chain's part of it. */
export interface ChainWriteRow {
  readonly case: string;
  readonly 'us/unit': string;
  readonly 'chain entries/unit': string;
  readonly 'chain hashing us/unit': string;
  readonly 'hashing share': string;
}

function row(name: string, result: Awaited<ReturnType<typeof chainShare>>): ChainWriteRow {
  return {
    case: name,
    'us/unit': (result.measured.nsPerOp / 1000).toFixed(1),
    'chain entries/unit': result.entries.toFixed(1),
    'chain hashing us/unit': (result.hashNs / 1000).toFixed(1),
    'hashing share': `${((result.hashNs / result.measured.nsPerOp) * 100).toFixed(1)}%`,
  };
}

/**
 * The chain's write cost on `store`: per call (`recordCallStarted` + `admitOutcome`, two entries) and per run (a
 * complete 20-call run through the runner: messages, calls, projection audits, status changes).
 */
export async function chainWriteRows(
  name: string,
  store: RunStore,
  sizes: { readonly calls: number; readonly runs: number; readonly rounds: number },
): Promise<ChainWriteRow[]> {
  const run = await store.createRun();
  let next = 0;
  let admissions = 0;
  const perCall = await chainShare(
    () =>
      measure(
        `${name}: one call`,
        async () => {
          const callId = `c${next++}`;
          admissions++;
          await store.recordCallStarted(run.runId, {
            callId,
            toolName: 'get_weather',
            attempts: 1,
            arguments: { city: 'Tokyo' },
            argumentsSha256: tokyoSha256,
          });
          await store.admitOutcome(run.runId, callId, { ok: true, data: { city: 'Tokyo', degrees: 22 } }, 1);
        },
        sizes.calls,
        sizes.rounds,
      ),
    () => admissions,
  );
  let runs = 0;
  const perRun = await chainShare(
    () =>
      measure(
        `${name}: one run`,
        async () => {
          runs++;
          await completing.complete('weather of 20 cities', { store });
        },
        sizes.runs,
        sizes.rounds,
      ),
    () => runs,
  );
  return [row(`${name}: per call (start + admit)`, perCall), row(`${name}: per ${CALLS_PER_RUN}-call run`, perRun)];
}

/** A store whose `loadRun` skips the chain's verification (the baseline of the verify case). */
function unverified(store: RunStore): RunStore {
  return new Proxy(store, {
    get(target, property) {
      if (property === 'loadRun')
        return async (runId: string) => {
          const record = await target.exportRun(runId);
          if (record === undefined) return undefined;
          const { chain: _chain, ...plain } = record;
          return plain;
        };
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
/** The same wrapper with verification kept, so both cases pay for the indirection. */
function verified(store: RunStore): RunStore {
  return new Proxy(store, {
    get(target, property) {
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** Runs of 20 admitted calls whose model failed after the tools ran, ready to resume. */
async function crashedRuns(store: RunStore, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let index = 0; index < count; index++) {
    const runId = `crashed-${index}-${Math.random().toString(36).slice(2)}`;
    await crashing.complete('weather of 20 cities', { store, runId }).catch(() => undefined);
    ids.push(runId);
  }
  return ids;
}

/**
 * A resumed 20-call run with and without the chain's verification on `store` (each resume takes a fresh crashed
 * run), measured together; prints whether verification stays within 10% (ratio of the fastest rounds).
 */
export async function verifyCost(
  name: string,
  store: RunStore,
  sizes: { readonly iterations: number; readonly rounds: number },
): Promise<{ readonly plain: Measurement; readonly verified: Measurement; readonly line: string }> {
  const needed = sizes.iterations + sizes.rounds * 2 * sizes.iterations;
  const pools = { plain: await crashedRuns(store, needed), verified: await crashedRuns(store, needed) };
  const resume = (pool: string[], on: RunStore) => async () => {
    const runId = pool.pop();
    if (runId === undefined) throw new Error('the bench ran out of crashed runs');
    const result = await resuming.resume(runId, { store: on });
    if (result.stopReason !== 'end_turn') throw new Error(`resume ended with ${result.stopReason}`);
  };
  const [plain, checked] = await measureTogether(
    [
      [`${name}: resume, verification skipped`, resume(pools.plain, unverified(store))],
      [`${name}: resume, chain verified`, resume(pools.verified, verified(store))],
    ],
    sizes.iterations,
    sizes.rounds,
  );
  const ratio = ratioOfFastestRounds(checked, plain);
  const share = ratio - 1;
  const line =
    `${name}: verification adds ${(share * 100).toFixed(1)}% to a resumed ${CALLS_PER_RUN}-call run ` +
    `(${(plain.nsPerOp / 1000).toFixed(0)} -> ${(checked.nsPerOp / 1000).toFixed(0)} us, ratio of fastest rounds ` +
    `${ratio.toFixed(3)}): at most ${MAX_VERIFY_SHARE * 100}%: ${share <= MAX_VERIFY_SHARE ? 'met' : 'NOT MET'}`;
  return { plain, verified: checked, line };
}
