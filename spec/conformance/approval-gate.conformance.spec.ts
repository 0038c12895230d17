import { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { McpHttpHandler } from '../../lib/mcp';
import { startWorker } from '../../lib/queue';
import type { QueueWorker } from '../../lib/queue';
import { LlmAgentRunner } from '../../lib';
import { connectHttp, listenHttp, sdkClient } from '../mcp/mcp-support';
import { useQueueFixtures } from '../queue/queue-fixture';
import { waitFor } from '../queue/worker-processes';
import { cells, resumeRun, startingEntry, startRun, deliveryOf, Cell } from './support/matrix';
import { decide, failureCode, LedgerTools } from './support/side-effects';
import { STORE_KINDS, useScenarioStores } from './support/stores';
import { useWires, WIRE_CLIENT_KINDS } from './support/wires';
import type { ClientKind } from './support/wires';

const makeWire = useWires();
const openStore = useScenarioStores('approval-gate');
const openQueue = useQueueFixtures();
const refund = { id: 'call_refund', name: 'refund', arguments: { cents: 500 } };

/** Starts a run whose model asks for the gated refund; with a store and no handler it suspends. */
async function suspended(cell: Cell) {
  const wire = await makeWire(cell.client as ClientKind);
  const tools = new LedgerTools();
  const opened = cell.store === 'none' ? undefined : await openStore(cell.store);
  wire.answer({ calls: [refund] }, deliveryOf(cell.entry));
  const runId = `gate-${cell.store}-${cell.entry}-${cell.client}`;
  const result = await startRun(new LlmAgentRunner(wire.client(), tools), startingEntry(cell.entry), 'refund it', {
    runId,
    ...(opened === undefined ? {} : { store: opened.store }),
  });
  return { wire, tools, opened, runId, result };
}

describe('a call that needs approval never runs without a decision', () => {
  describe('OpenAI Agents JS #647: a streamed run ignores that a tool needs approval and runs it', () => {
    it.each([
      ...cells(STORE_KINDS, ['complete', 'stream'], ['scripted']),
      ...cells(['memory'], ['stream'], WIRE_CLIENT_KINDS),
    ])('%s', async (_name, cell) => {
      const { wire, tools, opened, runId, result } = await suspended(cell);
      expect(result.stopReason).toBe('awaiting_approval');
      expect(tools.ran('refund')).toBe(0);
      expect(wire.requestCount()).toBe(1);
      const record = (await opened!.store.loadRun(runId))!;
      expect(record.status).toBe('awaiting_approval');
      expect(record.approvals.map((approval) => [approval.callId, approval.state])).toEqual([
        ['call_refund', 'pending'],
      ]);
      expect(record.toolCalls.filter((call) => call.callId === 'call_refund')).toEqual([]);
    });

    it.each(cells(['none'], ['complete', 'stream'], ['scripted', ...WIRE_CLIENT_KINDS]))(
      '%s (no store, no handler: denied)',
      async (_name, cell) => {
        const wire = await makeWire(cell.client as ClientKind);
        const tools = new LedgerTools();
        wire.answer({ calls: [refund] }, deliveryOf(cell.entry));
        wire.answer({ text: 'understood' }, deliveryOf(cell.entry));
        const result = await startRun(
          new LlmAgentRunner(wire.client(), tools),
          startingEntry(cell.entry),
          'refund',
          {},
        );
        expect(tools.ran('refund')).toBe(0);
        expect(result.stopReason).toBe('end_turn');
        expect(wire.toolResults().map((sent) => [sent.callId, failureCode(sent.content)])).toEqual([
          ['call_refund', 'approval_denied'],
        ]);
        expect(wire.violations()).toEqual([]);
      },
    );
  });

  describe('mastra #14996: approval is bypassed under a streaming chat handler (resumed without a decision)', () => {
    it.each([
      ...cells(STORE_KINDS, ['resume', 'resumeStream'], ['scripted']),
      ...cells(['memory'], ['resumeStream'], WIRE_CLIENT_KINDS),
    ])('%s', async (_name, cell) => {
      const { wire, tools, opened, runId } = await suspended(cell);
      const store = await opened!.reopen();
      const again = await resumeRun(new LlmAgentRunner(wire.client(), tools), cell.entry as 'resume', runId, { store });
      expect(again.stopReason).toBe('awaiting_approval');
      expect(tools.ran('refund')).toBe(0);
      expect(wire.requestCount()).toBe(1);
      await decide(store, runId, refund, false);
      wire.answer({ text: 'not refunded' }, deliveryOf(cell.entry));
      const denied = await resumeRun(new LlmAgentRunner(wire.client(), tools), cell.entry as 'resume', runId, {
        store,
      });
      expect(denied.stopReason).toBe('end_turn');
      expect(tools.ran('refund')).toBe(0);
      expect(wire.toolResults().map((sent) => [sent.callId, failureCode(sent.content)])).toEqual([
        ['call_refund', 'approval_denied'],
      ]);
      expect(wire.violations()).toEqual([]);
    });
  });

  describe('OpenAI Agents JS #647 under a queue worker: a run enqueued on the queue ignores that a tool needs approval', () => {
    it.each([
      ...cells(['postgres'], ['queue-worker'], ['scripted', 'anthropic']).map(
        ([name, cell]): [string, Cell, boolean] => [`${name} approve`, cell, true],
      ),
      ...cells(['postgres'], ['queue-worker'], ['scripted']).map(([name, cell]): [string, Cell, boolean] => [
        `${name} deny`,
        cell,
        false,
      ]),
    ])('%s', async (_name, cell, approved) => {
      const f = await openQueue();
      const wire = await makeWire(cell.client as ClientKind);
      const tools = new LedgerTools();
      const work = (): QueueWorker =>
        startWorker({
          queue: f.queue,
          agents: { refunds: { runner: new LlmAgentRunner(wire.client(), tools) } },
          pollIntervalMs: 50,
        });
      const statusOf = async (runId: string) => (await f.store.loadRun(runId))?.status;
      wire.answer({ calls: [refund] }, 'json');
      let worker = work();
      const runId = await f.queue.enqueue({ agent: 'refunds', input: 'refund it' });
      await waitFor(async () => (await statusOf(runId)) === 'awaiting_approval', 30_000, 'awaiting approval');
      // No decision: another worker, and asking the queue to resume, run nothing.
      await worker.stop();
      worker = work();
      expect(await f.queue.resumeAfterApproval(runId)).toBe(false);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await statusOf(runId)).toBe('awaiting_approval');
      expect(tools.ran('refund')).toBe(0);
      expect(wire.requestCount()).toBe(1);
      wire.answer({ text: approved ? 'refunded' : 'not refunded' }, 'json');
      const decided = await f.queue.decideApproval(runId, refund.id, { approved, decidedBy: 'conformance' });
      expect(decided.resumeEnqueued).toBe(true);
      await waitFor(async () => (await statusOf(runId)) === 'completed', 30_000, 'completed after the decision');
      await worker.stop();
      expect(tools.ran('refund')).toBe(approved ? 1 : 0);
      expect(wire.toolResults().map((sent) => [sent.callId, failureCode(sent.content)])).toEqual([
        ['call_refund', approved ? undefined : 'approval_denied'],
      ]);
      expect(wire.violations()).toEqual([]);
      expect(await f.queue.resumeAfterApproval(runId)).toBe(false);
    });
  });

  describe('invokeToolCall: a host loop cannot skip the gate', () => {
    it.each(cells(['none', ...STORE_KINDS], ['invokeToolCall'], ['none']))('%s', async (_name, cell) => {
      const tools = new LedgerTools();
      const opened = cell.store === 'none' ? undefined : await openStore(cell.store);
      const runId = `invoke-${cell.store}`;
      if (opened !== undefined) await opened.store.createRun({ runId });
      const runner = new LlmAgentRunner((await makeWire('scripted')).client(), tools);
      const result = await runner.invokeToolCall(refund, {
        runId,
        ...(opened === undefined ? {} : { store: opened.store }),
      });
      expect(tools.ran('refund')).toBe(0);
      expect(result.outcome.ok).toBe(false);
      if (opened !== undefined) {
        const record = (await opened.store.loadRun(runId))!;
        expect(record.toolCalls.filter((call) => call.status === 'admitted' && call.outcome?.ok)).toEqual([]);
      }
    });
  });

  describe('MCP call: a client that cannot be asked, or declines, never gets the gated tool run', () => {
    it.each(cells(['none'], ['mcp-call'], ['none']))('%s', async (_name) => {
      const tools = new LedgerTools();
      const http = await listenHttp(new McpHttpHandler(tools));
      try {
        for (const elicit of [
          undefined,
          () => ({ action: 'decline' as const }),
          () => ({ action: 'cancel' as const }),
        ]) {
          const client = await connectHttp(sdkClient(elicit), http.url);
          try {
            const result = (await client.callTool({ name: 'refund', arguments: { cents: 500 } })) as CallToolResult;
            expect(result.isError).toBe(true);
            expect(failureCode((result.content[0] as { text: string }).text)).toBe('approval_denied');
          } finally {
            await client.close();
          }
        }
        expect(tools.ran('refund')).toBe(0);
      } finally {
        await http.close();
      }
    });
  });
});
