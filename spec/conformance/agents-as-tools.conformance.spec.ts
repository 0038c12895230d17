import { LlmAgentRunner, ScriptedModelClient } from '../../lib';
import type { ChatMessage, RunStore, ScriptedReply } from '../../lib';
import { childRunsOf } from '../../lib/agents';
import { cells, Cell } from './support/matrix';
import { LedgerTools } from './support/side-effects';
import { STORE_KINDS, useScenarioStores } from './support/stores';

jest.setTimeout(60_000);
const openStore = useScenarioStores('agents');

/** A scripted agent that asks `first` until a tool answered, then answers; it counts the requests it got. */
function countingModel(first: ScriptedReply) {
  const counter = { requests: 0 };
  const model = new ScriptedModelClient(
    [
      (messages: readonly ChatMessage[]): ScriptedReply => {
        counter.requests++;
        return messages.some((message) => message.role === 'tool') ? { text: 'done' } : first;
      },
    ],
    { whenExhausted: 'repeat' },
  );
  return { model, counter };
}

/** Approves every pending approval of a run, as an operator deciding from the store. */
async function approvePending(store: RunStore, runId: string): Promise<number> {
  let decided = 0;
  for (const approval of (await store.loadRun(runId))?.approvals ?? []) {
    if (approval.state !== 'pending') continue;
    const { callId, toolName, argumentsSha256, turn } = approval;
    await store.decideApproval(
      runId,
      callId,
      { approved: true, toolName, argumentsSha256, decidedBy: 'conformance' },
      { turn },
    );
    decided++;
  }
  return decided;
}

describe('approving inside a child run resumes the child without re-running it', () => {
  describe('mastra #23626: approving a tool inside a sub-agent restarts the sub-agent', () => {
    it.each(cells(STORE_KINDS, ['resume'], ['scripted']))('%s', async (_name, cell: Cell) => {
      const { store } = await openStore(cell.store as 'memory');
      const ledger = new LedgerTools();
      const child = countingModel({ toolCalls: [{ id: 'call_refund', name: 'refund', arguments: { cents: 700 } }] });
      const billing = new LlmAgentRunner(child.model, ledger).asTool({ name: 'billing', description: 'Refunds.' });
      const parent = countingModel({
        toolCalls: [{ id: 'call_billing', name: 'billing', arguments: { prompt: 'refund 700' } }],
      });
      const support = new LlmAgentRunner(parent.model, billing, { store });

      // The delegation itself needs approval (the child can refund), then the child's refund does.
      let result = await support.complete('refund my order', { runId: 'support' });
      let rounds = 0;
      while (result.stopReason === 'awaiting_approval' && rounds++ < 5) {
        const waiting = result.toolCalls.find((call) => call.awaitingApproval === true)!;
        const details = waiting.outcome.ok
          ? undefined
          : (waiting.outcome.error.details as { waitingRunIds?: string[] } | undefined);
        for (const runId of details?.waitingRunIds ?? ['support']) await approvePending(store, runId);
        result = await support.resume('support', { store });
      }
      expect(result.stopReason).toBe('end_turn');
      // The refund ran once, and the child was never started again: one request before its approval, one after.
      expect(ledger.executions.map((call) => call.arguments.cents)).toEqual([700]);
      expect(child.counter.requests).toBe(2);
      const children = await childRunsOf(store, 'support');
      expect(children.map((run) => run.status)).toEqual(['completed']);
      expect(result.toolCalls[0].outcome).toMatchObject({ ok: true });
    });
  });
});
