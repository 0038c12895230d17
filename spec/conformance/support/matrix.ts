import { LlmAgentRunner } from '../../../lib';
import type { LlmAgentRunStream, LlmAgentRunResult, LlmAgentRunOptions } from '../../../lib';
import type { ClientKind, Delivery } from './wires';
import type { StoreKind } from './stores';

/** The entry points a guarantee is checked on. */
export type EntryPoint =
  'complete' | 'stream' | 'resume' | 'resumeStream' | 'invokeToolCall' | 'queue-worker' | 'mcp-call';

/** One cell of the matrix: a store (or `none`), an entry point and a client. */
export interface Cell {
  readonly store: StoreKind | 'none';
  readonly entry: EntryPoint;
  readonly client: ClientKind | 'none';
}

/**
 * The name of a cell's test, which the matrix reporter (`matrix-reporter.js`) reads back: the guarantee is the
 * file's outer `describe`, the scenario (the public report it reproduces) the inner one.
 */
export function cellName(cell: Cell, what?: string): string {
  return `store=${cell.store} entry=${cell.entry} client=${cell.client}${what === undefined ? '' : ` ${what}`}`;
}

/** Every combination of the given stores, entry points and clients, as `it.each` rows `[name, cell]`. */
export function cells(
  stores: readonly (StoreKind | 'none')[],
  entries: readonly EntryPoint[],
  clients: readonly (ClientKind | 'none')[],
): [string, Cell][] {
  return stores.flatMap((store) =>
    entries.flatMap((entry) =>
      clients.map((client): [string, Cell] => [cellName({ store, entry, client }), { store, entry, client }]),
    ),
  );
}

/** How the model's answers reach an entry point. */
export function deliveryOf(entry: EntryPoint): Delivery {
  return entry === 'stream' || entry === 'resumeStream' ? 'stream' : 'json';
}

/** Reads a run's stream to its end and returns its result. */
export async function drained(stream: LlmAgentRunStream): Promise<LlmAgentRunResult> {
  for await (const event of stream) void event;
  return stream.result;
}

/** Starts a run through `complete()` or `stream()`. */
export function startRun(
  runner: LlmAgentRunner,
  entry: 'complete' | 'stream',
  input: string,
  options: LlmAgentRunOptions,
): Promise<LlmAgentRunResult> {
  return entry === 'complete' ? runner.complete(input, options) : drained(runner.stream(input, options));
}

/** Continues a stored run through `resume()` or `resumeStream()`. */
export function resumeRun(
  runner: LlmAgentRunner,
  entry: 'resume' | 'resumeStream',
  runId: string,
  options: LlmAgentRunOptions,
): Promise<LlmAgentRunResult> {
  return entry === 'resume' ? runner.resume(runId, options) : drained(runner.resumeStream(runId, options));
}

/** The entry that starts a run delivered like `entry` (a stream for `resumeStream`). */
export function startingEntry(entry: EntryPoint): 'complete' | 'stream' {
  return deliveryOf(entry) === 'stream' ? 'stream' : 'complete';
}

/** The entry that resumes a run delivered like `entry`. */
export function resumingEntry(entry: EntryPoint): 'resume' | 'resumeStream' {
  return deliveryOf(entry) === 'stream' ? 'resumeStream' : 'resume';
}
