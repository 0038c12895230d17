import { LlmAgentRunner } from '../../lib';
import type { ToolInvocation } from '../../lib/providers/tool-invocation';
import { cellName, Cell } from './support/matrix';
import { LedgerTools } from './support/side-effects';
import { STORE_KINDS, StoreKind, useScenarioStores } from './support/stores';
import { CLIENT_KINDS, ClientKind, useWires } from './support/wires';

jest.setTimeout(60_000);
const makeWire = useWires();
const openStore = useScenarioStores('stopped-run');
const lookup = (id: string) => ({ id: `call_${id}`, name: 'lookup', arguments: { id } });

type Stop = 'max-steps' | 'abort' | 'failed-step';

function rows(stops: readonly Stop[]): [string, Cell, Stop][] {
  return STORE_KINDS.flatMap((store) =>
    CLIENT_KINDS.flatMap((client) =>
      stops.map((stop): [string, Cell, Stop] => {
        // An aborted run is cancelled: it is continued (`continueFrom`), the others are resumed.
        const cell: Cell = { store, entry: stop === 'abort' ? 'complete' : 'resume', client };
        return [cellName(cell, stop), cell, stop];
      }),
    ),
  );
}

/**
 * Stops a run whose first answer asks for two lookups: at `maxSteps: 1`, by an abort while the second lookup
 * runs, or by a failed second model request. Then the stored transcript goes through the real client: a new
 * run continues it (`continueFrom`), and the stopped run itself is resumed where a resume is allowed; every
 * request the client sent must pass the provider's transcript rules, and the run must end.
 */
async function stopAndContinue(storeKind: StoreKind, client: ClientKind, stop: Stop) {
  const wire = await makeWire(client);
  const controller = new AbortController();
  // The abort comes once `fast` has run and `slow` is running, however long the store's writes take.
  let fastRan: () => void = () => undefined;
  const fastDone = new Promise<void>((resolve) => (fastRan = resolve));
  const tools = new LedgerTools((invocation: ToolInvocation) => {
    if (invocation.arguments.id === 'fast') fastRan();
    if (stop !== 'abort' || invocation.arguments.id !== 'slow') return { id: invocation.arguments.id, found: true };
    void fastDone.then(() => setTimeout(() => controller.abort(), 20));
    return new Promise(() => undefined);
  });
  const { store } = await openStore(storeKind);
  const runId = `stopped-${stop}`;
  const runner = () => new LlmAgentRunner(wire.client(), tools);
  wire.answer({ calls: [lookup('fast'), lookup('slow')] }, 'json');
  if (stop === 'failed-step') wire.failNext();
  const started = runner().complete('look both up', {
    store,
    runId,
    ...(stop === 'max-steps' ? { maxSteps: 1 } : {}),
    ...(stop === 'abort' ? { signal: controller.signal } : {}),
  });
  if (stop === 'failed-step') await expect(started).rejects.toThrow();
  else expect((await started).stopReason).toBe(stop === 'max-steps' ? 'max_steps' : 'aborted');
  const stopped = (await store.loadRun(runId))!;
  expect(stopped.status).toBe({ 'max-steps': 'stopped', abort: 'cancelled', 'failed-step': 'failed' }[stop]);

  wire.answer({ text: 'continued' }, 'json');
  const continued = await runner().complete('and now?', { store, runId: `${runId}-next`, continueFrom: runId });
  expect(continued.stopReason).toBe('end_turn');
  expect(wire.toolResults().map((result) => result.callId)).toEqual(['call_fast', 'call_slow']);
  if (stop !== 'abort') {
    wire.answer({ text: 'resumed' }, 'json');
    const resumed = await runner().resume(runId, { store, maxSteps: 4 });
    expect(resumed.stopReason).toBe('end_turn');
    expect(resumed.text).toBe('resumed');
    expect(wire.toolResults().map((result) => result.callId)).toEqual(['call_fast', 'call_slow']);
  }
  // Each lookup ran once: neither the continuation nor the resume ran a call of the stopped turn again.
  expect(tools.executions.map((call) => call.arguments.id).sort()).toEqual(['fast', 'slow']);
  expect(wire.violations()).toEqual([]);
}

describe('a run stopped at maxSteps, by an abort or by a failed model step leaves a transcript every client accepts', () => {
  describe('inngest/agent-kit #276: a run stopped at its step limit leaves a malformed tool-call history', () => {
    it.each(rows(['max-steps', 'abort', 'failed-step']))('%s', async (_name, cell, stop) => {
      await stopAndContinue(cell.store as StoreKind, cell.client as ClientKind, stop);
    });
  });
});
