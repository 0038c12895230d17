import { LlmAgentRunner } from '../../lib';
import type { LlmAgentEvent, LlmAgentRunOptions, ToolApprovalDecision } from '../../lib';
import { makeTempDir } from '../durable/temp-dir';
import { boundaryAgent } from './support/boundary-agent';
import { cellName, cells, deliveryOf, startRun, Cell } from './support/matrix';
import { decide, failureCode, LedgerTools } from './support/side-effects';
import { DURABLE_STORE_KINDS, STORE_KINDS, useScenarioStores } from './support/stores';
import { ClientKind, useWires, WIRE_CLIENT_KINDS } from './support/wires';
import { killWorkerAt, ledger } from './support/worker-process';

jest.setTimeout(90_000);
const makeWire = useWires();
const openStore = useScenarioStores('fail-closed');
const temp = makeTempDir('conformance-fail-closed');
afterAll(() => temp.cleanup());
const refund = { id: 'call_refund', name: 'refund', arguments: { cents: 500 } };

/**
 * Starts a run whose model asks for the gated refund, with `options` (an approval handler, a signal); then waits
 * a moment, so that a late "approved" of the handler would have had its chance to run the tool.
 */
async function runGated(cell: Cell, options: (runId: string) => LlmAgentRunOptions) {
  const wire = await makeWire(cell.client as ClientKind);
  const tools = new LedgerTools();
  const opened = cell.store === 'none' ? undefined : await openStore(cell.store);
  const runId = `fail-closed-${cell.store}-${cell.entry}-${cell.client}`;
  const events: LlmAgentEvent[] = [];
  wire.answer({ calls: [refund] }, deliveryOf(cell.entry));
  wire.answer({ text: 'not refunded' }, deliveryOf(cell.entry));
  const startedAt = Date.now();
  const result = await startRun(new LlmAgentRunner(wire.client(), tools), cell.entry as 'complete', 'refund it', {
    runId,
    onEvent: (event) => events.push(event),
    ...(opened === undefined ? {} : { store: opened.store }),
    ...options(runId),
  });
  const tookMs = Date.now() - startedAt;
  await new Promise((resolve) => setTimeout(resolve, 50));
  const record = opened === undefined ? undefined : await opened.store.loadRun(runId);
  return { wire, tools, result, record, events, tookMs };
}

const codesOf = (result: { toolCalls: readonly { callId: string; content: string }[] }) =>
  result.toolCalls.map((call) => [call.callId, failureCode(call.content)]);

describe('an abort, a thrown or hung approval handler, a crash while an approval is pending: fail closed', () => {
  describe('Claude Agent SDK: an abort during a pending approval hook is taken as success and the gated tool runs', () => {
    it.each([
      ...cells(['none', ...STORE_KINDS], ['complete', 'stream'], ['scripted']),
      ...cells(['memory'], ['stream'], WIRE_CLIENT_KINDS),
    ])('%s abort while the handler is pending', async (_name, cell) => {
      const controller = new AbortController();
      // The run is aborted while the handler is pending, and the handler answers "approved" as the abort arrives:
      // the abort must win, the late answer is ignored.
      const handler = () => {
        setTimeout(() => controller.abort(), 20);
        return new Promise<ToolApprovalDecision>((resolve) =>
          controller.signal.addEventListener('abort', () => resolve({ approved: true })),
        );
      };
      const { wire, tools, result, record } = await runGated(cell, () => ({
        signal: controller.signal,
        approvalHandler: handler,
      }));
      expect(result.stopReason).toBe('aborted');
      expect(tools.ran('refund')).toBe(0);
      expect(codesOf(result)).toEqual([['call_refund', 'cancelled']]);
      expect(wire.requestCount()).toBe(1);
      if (record !== undefined) {
        expect(record.status).toBe('cancelled');
        expect(record.approvals.map((approval) => approval.state)).toEqual(['cancelled']);
        const sent = record.messages.filter((message) => message.role === 'tool') as { content: string }[];
        expect(sent.map((message) => failureCode(message.content))).toEqual(['cancelled']);
      }
    });

    it.each(cells(['none', ...STORE_KINDS], ['complete', 'stream'], ['scripted']))(
      '%s thrown and rejecting handler',
      async (_name, cell) => {
        const handlers = [
          (): never => {
            throw new Error('pager unreachable');
          },
          () => Promise.reject(new Error('pager unreachable')),
        ];
        for (const [at, handler] of handlers.entries()) {
          const { wire, tools, result, record, events } = await runGated(cell, (runId) => ({
            approvalHandler: handler,
            runId: `${runId}-${at}`,
          }));
          expect(result.stopReason).toBe('end_turn');
          expect(tools.ran('refund')).toBe(0);
          expect(codesOf(result)).toEqual([['call_refund', 'approval_denied']]);
          expect(events.filter((event) => event.type === 'hook_failed').map((event) => event.type)).toEqual([
            'hook_failed',
          ]);
          expect(failureCode(wire.toolResults()[0].content)).toBe('approval_denied');
          expect(wire.violations()).toEqual([]);
          if (record !== undefined) {
            expect(record.status).toBe('completed');
            expect(record.approvals.map((approval) => approval.state)).toEqual(['denied']);
          }
        }
      },
    );

    it.each(cells(['none', ...STORE_KINDS], ['complete', 'stream'], ['scripted']))(
      '%s hung handler, the run deadline passes',
      async (_name, cell) => {
        const { tools, result, record, tookMs } = await runGated(cell, () => ({
          signal: AbortSignal.timeout(500),
          approvalHandler: () => new Promise<never>(() => undefined),
        }));
        expect(result.stopReason).toBe('aborted');
        expect(tookMs).toBeLessThan(5_000);
        expect(tools.ran('refund')).toBe(0);
        expect(codesOf(result)).toEqual([['call_refund', 'cancelled']]);
        if (record !== undefined) {
          expect(record.status).toBe('cancelled');
          expect(record.approvals.map((approval) => approval.state)).toEqual(['cancelled']);
        }
      },
    );

    it.concurrent.each(
      DURABLE_STORE_KINDS.map((store): [string, Cell] => {
        const cell: Cell = { store, entry: 'resume', client: 'scripted' };
        return [cellName(cell, 'SIGKILL while the approval is pending'), cell];
      }),
    )('%s', async (_name, cell) => {
      const opened = await openStore(cell.store as 'sqlite');
      const dir = makeTempDir(`fail-closed-${cell.store}`).path;
      const killed = await killWorkerAt(opened.address, dir, 'approval-pending', { GATED: '1' });
      expect(killed.stderr).toBe('');
      expect(killed.code).toBeNull();
      expect(ledger(dir, 'charge.ledger')).toEqual([]);
      // A fresh process (a store opened anew, a new runner without a handler) sees the approval still pending.
      const store = await opened.reopen();
      const crashed = (await store.loadRun('crash-run'))!;
      expect(crashed.approvals.map((approval) => [approval.callId, approval.state])).toEqual([
        ['call_charge', 'pending'],
      ]);
      const agent = () => boundaryAgent(store, dir, undefined, true).runner;
      expect((await agent().resume('crash-run', { store })).stopReason).toBe('awaiting_approval');
      expect(ledger(dir, 'charge.ledger')).toEqual([]);
      await decide(store, 'crash-run', { id: 'call_charge', name: 'charge', arguments: { cents: 500 } }, true);
      const done = await agent().resume('crash-run', { store });
      expect(done.stopReason).toBe('end_turn');
      expect(done.toolCalls.map((call) => call.outcome)).toEqual([{ ok: true, data: { charged: 500 } }]);
      await expect(agent().resume('crash-run', { store })).rejects.toMatchObject({ code: 'run_conflict' });
      expect(ledger(dir, 'charge.ledger')).toHaveLength(1);
    });
  });
});
