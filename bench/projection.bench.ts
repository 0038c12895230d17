/**
 * Projection of large tool outputs for the model, as ratios to in-process baselines measured in
 * the same run:
 *
 * - plain text: throughput of `tryProjectToolOutputForModel` (default policy, fallback estimator,
 *   original measured and estimated included) against `Buffer.byteLength` of the same string;
 *   target at least 1/3 of its throughput;
 * - structured data: cost of projecting `toolData(value)` (rendering included) against
 *   `JSON.stringify(value)`; target at most 1.5x. Beside it, the part no projection can skip: the
 *   value rendered and its exact UTF-8 size counted, as the projection does it (`renderArrayInParts`:
 *   `JSON.stringify` of runs of about 8 Ki code units of items, each measured with
 *   `Buffer.byteLength`), as a ratio to `JSON.stringify`; and the projection against
 *   `Buffer.byteLength(JSON.stringify(value))`, the way it measured before: V8 returns
 *   `JSON.stringify`'s result as a rope, and counting its bytes flattens it into one fresh string of
 *   the whole size (newly mapped memory, about as costly as rendering it on this machine);
 * - the fallback token estimator alone (`fallbackTextTokenEstimator.estimateTokens`, what every
 *   projection pays per text it sends) on a 29-character JSON result, a 4 KiB JSON text and 4 KiB
 *   of English prose, against a bare `charCodeAt` loop over the same text: once fresh, then after
 *   the estimator has seen varied text as in a long-running process; target (after varied text) at
 *   most 2x on the 4 KiB texts, 4x on the short one (one call of the platform's UTF-8 encoder is
 *   most of its cost).
 *
 * One line per case says met / not met.
 */
import {
  DEFAULT_TOOL_OUTPUT_PROJECTION,
  fallbackTextTokenEstimator,
  tryProjectToolOutputForModel,
} from '../lib/projection';
import { JsonValue, ToolOutcome, toolData, toolText } from '../lib';
import { renderArrayInParts } from '../lib/projection/render-array-in-parts';

const MIB = 1 << 20;

function asciiText(bytes: number): string {
  return 'The quick brown fox jumps over the lazy dog; 0123456789.\n'.repeat(Math.ceil(bytes / 57)).slice(0, bytes);
}

function multiByteText(bytes: number): string {
  const unit = '漢字とかな、한국어, текст, ünïcödé 😀 and some ASCII words. ';
  return unit.repeat(Math.ceil(bytes / Buffer.byteLength(unit)));
}

function jsonArray(bytes: number, tag: string): JsonValue {
  const count = Math.ceil(bytes / 80);
  return Array.from({ length: count }, (_, id) => ({ id, name: `item ${id}`, tags: ['alpha', tag], score: id / 7 }));
}

const PROSE =
  'The server returned the configuration file after a short delay, and the client compared it with the copy it had cached the day before. ' +
  'Most values were the same; however, the timeout had been raised from thirty to ninety seconds, which explained why requests no longer failed ' +
  'when the network was slow. The operator wrote a note about the change, because nobody could remember who had approved it or why. ';

/** About `units` code units of English prose. */
function proseText(units: number): string {
  return PROSE.repeat(Math.ceil(units / PROSE.length)).slice(0, units);
}

/** Compact JSON text of about `units` code units: records of ids, names, timestamps and numbers. */
function jsonText(units: number): string {
  const records: JsonValue[] = [];
  for (let id = 0; JSON.stringify(records).length < units; id++)
    records.push({
      id,
      name: `sensor-${id}`,
      city: 'Tokyo',
      at: new Date(Date.UTC(2026, 0, 1, 0, id)).toISOString(),
      degrees: 20 + (id % 7) / 4,
      ok: id % 3 !== 0,
    });
  return JSON.stringify(records);
}

/** Where the timed loops leave their results, so no loop is optimized away. */
let sink = 0;

/** The baseline of the estimator: one `charCodeAt` per code unit and nothing else. */
function bareLoop(text: string): number {
  let sum = 0;
  for (let at = 0; at < text.length; at++) sum += text.charCodeAt(at);
  return sum;
}

/** `fn(text)` repeated `times` times in one synchronous loop (one timed sample). */
function repeated(fn: (text: string) => number, text: string, times: number): () => void {
  return () => {
    let total = 0;
    for (let round = 0; round < times; round++) total += fn(text);
    sink ^= total;
  };
}

/**
 * Texts of the kinds a long-running process hands the estimator: built by concatenation, sliced,
 * two-byte (CJK, emoji), with a lone surrogate, digits. Estimating them first puts the estimator in
 * the state it has in such a process (the type feedback its optimized code is built on).
 */
function variedTexts(): string[] {
  const texts: string[] = [];
  for (let index = 0; index < 2000; index++)
    texts.push(
      `{"id":${index},"name":"item ${index}"}`,
      JSON.stringify({ city: '東京', degrees: index, note: 'ünïcödé 😀' }),
      proseText(600).slice(index % 40, 300 + (index % 50)),
      '😀 ' + 'x'.repeat(index % 30) + '\ud800 ' + index,
      String(index * 7919),
    );
  return texts;
}

/**
 * Times the estimator on each text against a bare loop over it and adds a row (and a verdict, when `verdicts` is
 * given).
 */
function timeEstimator(state: string, rows: Record<string, string>[], verdicts: string[] | undefined): void {
  const estimate = (text: string): number => fallbackTextTokenEstimator.estimateTokens(text);
  const texts = [
    ['29-char JSON', '{"city":"Tokyo","degrees":22}', 4],
    ['4 KiB JSON', jsonText(4096), 2],
    ['4 KiB English prose', proseText(4096), 2],
  ] as const;
  for (const [name, text, target] of texts) {
    // About 400,000 code units per timed sample (a few ms), so the clock's resolution does not count.
    const times = Math.ceil(400_000 / text.length);
    const [baselineNs, estimatorNs] = timeTogether(
      [repeated(bareLoop, text, times), repeated(estimate, text, times)],
      61,
    );
    const cost = estimatorNs / baselineNs;
    verdicts?.push(
      `target estimator on ${name} <= ${target}x a bare charCodeAt loop: ${cost.toFixed(2)}x: ${cost <= target ? 'met' : 'NOT MET'}`,
    );
    rows.push({
      case: `estimateTokens, ${name} (${text.length} units), ${state}`,
      'ns/unit': (estimatorNs / times / text.length).toFixed(2),
      'baseline ns/unit': (baselineNs / times / text.length).toFixed(2),
      baseline: 'charCodeAt loop',
      'cost ratio': cost.toFixed(2) + 'x',
      target: verdicts === undefined ? '' : `<= ${target}x`,
    });
  }
}

/**
 * Prints the estimator figures: first with only the timed texts seen, then (the targets) after the
 * estimator has seen {@link variedTexts}.
 */
function estimatorBench(): void {
  const rows: Record<string, string>[] = [];
  const verdicts: string[] = [];
  timeEstimator('fresh', rows, undefined);
  for (const text of variedTexts()) sink ^= fallbackTextTokenEstimator.estimateTokens(text);
  timeEstimator('after varied text', rows, verdicts);
  console.table(rows);
  for (const verdict of verdicts) console.log(verdict);
  if (sink === 0.5) console.log(sink);
}

function project(outcome: ToolOutcome): string {
  const result = tryProjectToolOutputForModel(outcome, { policy: DEFAULT_TOOL_OUTPUT_PROJECTION });
  if (!result.ok) throw new Error(result.error.message);
  return result.content;
}

/**
 * Median nanoseconds of CPU time per call of each function (the process's user + system time, so
 * other processes sharing the machine do not count), timed in alternation so all see the same load
 * (after one warm-up call each).
 */
function timeTogether(functions: ReadonlyArray<() => unknown>, samples: number): number[] {
  for (const fn of functions) fn();
  const nanoseconds = functions.map((): number[] => []);
  for (let sample = 0; sample < samples; sample++)
    functions.forEach((fn, index) => {
      const start = process.cpuUsage();
      fn();
      const spent = process.cpuUsage(start);
      nanoseconds[index].push((spent.user + spent.system) * 1000);
    });
  return nanoseconds.map(median);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function megabytesPerSecond(bytes: number, nsPerOp: number): string {
  return (bytes / MIB / (nsPerOp / 1e9)).toFixed(0);
}

/** Prints the projection figures. */
export default async function projectionBench(): Promise<void> {
  estimatorBench();
  const rows: Record<string, string>[] = [];
  const verdicts: string[] = [];
  for (const size of [MIB, 10 * MIB]) {
    const samples = size === MIB ? 60 : 15;
    const label = size === MIB ? '1 MiB' : '10 MiB';
    for (const [kind, text] of [
      ['ASCII text', asciiText(size)],
      ['multi-byte text', multiByteText(size)],
    ] as const) {
      const bytes = Buffer.byteLength(text);
      const outcome = toolText(text);
      const [baselineNs, projectionNs] = timeTogether(
        [() => Buffer.byteLength(text, 'utf8'), () => project(outcome)],
        samples,
      );
      const throughput = baselineNs / projectionNs;
      verdicts.push(
        `target ${label} ${kind} throughput >= 0.33 of Buffer.byteLength: ${throughput.toFixed(2)}: ${throughput >= 0.33 ? 'met' : 'NOT MET'}`,
      );
      rows.push({
        case: `${label} ${kind}`,
        'projection MB/s': megabytesPerSecond(bytes, projectionNs),
        'baseline MB/s': megabytesPerSecond(bytes, baselineNs),
        baseline: 'Buffer.byteLength',
        'throughput ratio': (baselineNs / projectionNs).toFixed(2),
        target: '>= 0.33',
      });
    }
    for (const [kind, tag] of [
      ['JSON array', 'beta'],
      ['JSON array, multi-byte', 'β'],
    ] as const) {
      const value = jsonArray(size, tag);
      const bytes = Buffer.byteLength(JSON.stringify(value));
      const outcome = toolData(value);
      const [baselineNs, measuredNs, inherentNs, projectionNs] = timeTogether(
        [
          () => JSON.stringify(value),
          () => Buffer.byteLength(JSON.stringify(value), 'utf8'),
          () => renderArrayInParts(value as JsonValue[], DEFAULT_TOOL_OUTPUT_PROJECTION.maxBytes),
          () => project(outcome),
        ],
        Math.max(5, samples / 4),
      );
      const cost = projectionNs / baselineNs;
      verdicts.push(
        `target ${label} ${kind} cost <= 1.5x JSON.stringify: ${cost.toFixed(2)}x: ${cost <= 1.5 ? 'met' : 'NOT MET'}`,
      );
      verdicts.push(
        `  ${label} ${kind}: rendering with its exact UTF-8 size alone (what any projection pays) ${(inherentNs / baselineNs).toFixed(2)}x JSON.stringify`,
      );
      rows.push({
        case: `${label} ${kind} (${(bytes / MIB).toFixed(1)} MiB)`,
        'projection MB/s': megabytesPerSecond(bytes, projectionNs),
        'baseline MB/s': megabytesPerSecond(bytes, baselineNs),
        baseline: 'JSON.stringify',
        'cost ratio': (projectionNs / baselineNs).toFixed(2) + 'x',
        target: '<= 1.5x',
        'inherent: render + exact bytes': (inherentNs / baselineNs).toFixed(2) + 'x',
        'vs stringify + byteLength': (projectionNs / measuredNs).toFixed(2) + 'x',
      });
    }
  }
  console.table(rows);
  for (const verdict of verdicts) console.log(verdict);
}
