import { LlmAgentRunner, ScriptedModelClient } from '../../lib';
import type { ChatMessage } from '../../lib';
import { cells, resumeRun, startingEntry, startRun, deliveryOf, Cell } from './support/matrix';
import { decide, failureCode, LedgerTools } from './support/side-effects';
import { STORE_KINDS, useScenarioStores } from './support/stores';
import { ClientKind, useWires } from './support/wires';

jest.setTimeout(60_000);
const makeWire = useWires();
const openStore = useScenarioStores('consecutive');
const refundOf = (cents: number, id = `call_${cents}`) => ({ id, name: 'refund', arguments: { cents } });

describe('consecutive approvals, parallel approvals and concurrent runs each resume with their own decision', () => {
  describe('OpenAI Agents JS #1435: the second of two consecutive approvals fails', () => {
    it.each(cells(STORE_KINDS, ['resume', 'resumeStream'], ['scripted', 'anthropic', 'openai-responses']))(
      '%s',
      async (_name, cell: Cell) => {
        const wire = await makeWire(cell.client as ClientKind);
        const tools = new LedgerTools();
        const { store } = await openStore(cell.store as 'memory');
        const first = refundOf(100);
        const second = refundOf(200);
        wire.answer({ calls: [first] }, deliveryOf(cell.entry));
        const runId = 'consecutive';
        const runner = () => new LlmAgentRunner(wire.client(), tools);
        expect((await startRun(runner(), startingEntry(cell.entry), 'refund twice', { store, runId })).stopReason).toBe(
          'awaiting_approval',
        );
        await decide(store, runId, first, true, 1);
        wire.answer({ calls: [second] }, deliveryOf(cell.entry));
        const again = await resumeRun(runner(), cell.entry as 'resume', runId, { store });
        expect(again.stopReason).toBe('awaiting_approval');
        await decide(store, runId, second, true, 2);
        wire.answer({ text: 'both refunded' }, deliveryOf(cell.entry));
        const done = await resumeRun(runner(), cell.entry as 'resume', runId, { store });
        expect(done.stopReason).toBe('end_turn');
        expect(tools.executions.map((call) => call.arguments.cents)).toEqual([100, 200]);
        expect(wire.toolResults().map((sent) => [sent.callId, sent.content])).toEqual([
          ['call_200', '{"refunded":200}'],
        ]);
        expect(wire.violations()).toEqual([]);
        expect((await store.loadRun(runId))!.approvals.map((approval) => [approval.turn, approval.state])).toEqual([
          [1, 'approved'],
          [2, 'approved'],
        ]);
      },
    );

    it.each(cells(STORE_KINDS, ['resume'], ['scripted']))(
      '%s parallel approvals in one turn, decided in reverse',
      async (_name, cell) => {
        const wire = await makeWire('scripted');
        const tools = new LedgerTools();
        const { store } = await openStore(cell.store as 'memory');
        const calls = [refundOf(1), refundOf(2), refundOf(3)];
        wire.answer({ calls }, 'json');
        const runner = () => new LlmAgentRunner(wire.client(), tools);
        await runner().complete('three refunds', { store, runId: 'parallel' });
        await decide(store, 'parallel', calls[2], true);
        expect((await runner().resume('parallel', { store })).stopReason).toBe('awaiting_approval');
        // The decided call runs with its own decision; the two still pending do not.
        expect(tools.executions.map((call) => call.arguments.cents)).toEqual([3]);
        await decide(store, 'parallel', calls[1], false);
        await decide(store, 'parallel', calls[0], true);
        wire.answer({ text: 'done' }, 'json');
        expect((await runner().resume('parallel', { store })).stopReason).toBe('end_turn');
        expect(tools.executions.map((call) => call.arguments.cents).sort()).toEqual([1, 3]);
        expect(wire.toolResults().map((sent) => [sent.callId, failureCode(sent.content) ?? sent.content])).toEqual([
          ['call_1', '{"refunded":1}'],
          ['call_2', 'approval_denied'],
          ['call_3', '{"refunded":3}'],
        ]);
        expect(wire.violations()).toEqual([]);
      },
    );
  });

  describe('mastra #20322: concurrent approvals resume the wrong run', () => {
    it.each(cells(STORE_KINDS, ['resume'], ['scripted']))(
      '%s 50 concurrent runs, decisions interleaved',
      async (_name, cell) => {
        const { store } = await openStore(cell.store as 'memory');
        const tools = new LedgerTools();
        const count = 50;
        const centsOf = (messages: readonly ChatMessage[]) =>
          Number(/run (\d+)/.exec(JSON.stringify(messages[0].content))![1]);
        const model = new ScriptedModelClient(
          [
            (messages) =>
              messages.some((message) => message.role === 'tool')
                ? { text: 'done' }
                : { toolCalls: [{ id: 'call_refund', name: 'refund', arguments: { cents: centsOf(messages) } }] },
          ],
          { whenExhausted: 'repeat', recordRequests: false },
        );
        const runner = new LlmAgentRunner(model, tools);
        const ids = Array.from({ length: count }, (_, index) => index + 1);
        await Promise.all(ids.map((n) => runner.complete(`run ${n}`, { store, runId: `run-${n}` })));
        expect(tools.ran('refund')).toBe(0);
        // Decisions arrive in an order unrelated to the runs', each resume racing the next decision.
        const order = ids.map((n) => (n * 17) % count).map((n) => n + 1);
        await Promise.all(
          order.map(async (n, at) => {
            await new Promise((resolve) => setTimeout(resolve, at % 7));
            await decide(store, `run-${n}`, refundOf(n, 'call_refund'), n % 3 !== 0);
            return runner.resume(`run-${n}`, { store });
          }),
        );
        for (const n of ids) {
          const record = (await store.loadRun(`run-${n}`))!;
          expect(record.status).toBe('completed');
          const sent = record.messages.find((message) => message.role === 'tool') as { content: string };
          expect(n % 3 === 0 ? failureCode(sent.content) : sent.content).toBe(
            n % 3 === 0 ? 'approval_denied' : `{"refunded":${n}}`,
          );
        }
        const refunded = tools.executions.map((call) => call.arguments.cents as number).sort((a, b) => a - b);
        expect(refunded).toEqual(ids.filter((n) => n % 3 !== 0));
      },
    );
  });
});
