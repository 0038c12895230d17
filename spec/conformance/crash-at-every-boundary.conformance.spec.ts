import { makeTempDir } from '../durable/temp-dir';
import { boundaryAgent } from './support/boundary-agent';
import { cellName, Cell } from './support/matrix';
import { DURABLE_STORE_KINDS, useScenarioStores } from './support/stores';
import { killWorkerAt, ledger } from './support/worker-process';

jest.setTimeout(90_000);
const openStore = useScenarioStores('crash');
const temp = makeTempDir('conformance-crash');
afterAll(() => temp.cleanup());

type Boundary = 'before-admission' | 'after-admission' | 'before-next-request' | 'during-compensation';

/** Starts the run in a child process, SIGKILLs it at `stopAt`, and resumes it in another one. */
async function killAt(cell: Cell, stopAt: string, env: Record<string, string> = {}) {
  const opened = await openStore(cell.store as 'sqlite');
  const dir = makeTempDir(`crash-${stopAt}`).path;
  const killed = await killWorkerAt(opened.address, dir, stopAt, env);
  expect(killed.stderr).toBe('');
  expect(killed.code).toBeNull();
  // The resume runs here, as a restarted worker would, on a store opened anew.
  const store = await opened.reopen();
  const result = await boundaryAgent(store, dir).runner.resume('crash-run', { store });
  const record = (await opened.store.loadRun('crash-run'))!;
  return { dir, result, record };
}

const rows = (boundaries: readonly Boundary[]): [string, Cell, Boundary][] =>
  DURABLE_STORE_KINDS.flatMap((store) =>
    boundaries.map((boundary): [string, Cell, Boundary] => {
      const cell: Cell = { store, entry: 'resume', client: 'scripted' };
      return [cellName(cell, boundary), cell, boundary];
    }),
  );

describe('SIGKILL at every step boundary: each side effect at most once, unknown outcomes say so, resume completes', () => {
  describe('langgraph #6603, #6208, langgraphjs #1552, inngest/agent-kit #196: side effects re-run on resume', () => {
    it.concurrent.each(rows(['before-admission', 'after-admission', 'before-next-request', 'during-compensation']))(
      '%s',
      async (_name, cell, boundary) => {
        const { dir, result, record } = await killAt(cell, boundary);
        expect(ledger(dir, 'charge.ledger')).toHaveLength(1);
        expect(record.status).toBe('completed');
        expect(record.messages.filter((message) => message.role === 'tool')).toHaveLength(1);
        const stored = record.toolCalls.find((call) => call.callId === 'call_charge')!;
        if (boundary === 'before-admission' || boundary === 'during-compensation') {
          expect(stored.outcome!.error!.code).toBe('outcome_unknown');
          expect(result.toolCalls.map((call) => (call.outcome.ok ? undefined : call.outcome.error.code))).toEqual([
            'outcome_unknown',
          ]);
        } else expect(stored.outcome).toEqual({ ok: true, data: { charged: 500 } });
        if (boundary === 'during-compensation') expect(ledger(dir, 'compensate.ledger')).toHaveLength(1);
        expect(result.stopReason).toBe('end_turn');
      },
    );
  });
});
