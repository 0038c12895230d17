import { LlmAgentRunner } from '../../lib';
import type { LlmAgentRunResult } from '../../lib';
import { cellName, Cell } from './support/matrix';
import { decide, failureCode, LedgerTools } from './support/side-effects';
import { STORE_KINDS, StoreKind, useScenarioStores } from './support/stores';
import { CLIENT_KINDS, ClientKind, useWires } from './support/wires';

const makeWire = useWires();
const openStore = useScenarioStores('decisions');
const refund = { id: 'call_refund', name: 'refund', arguments: { cents: 500 } };

type Decision = 'approve' | 'deny' | 'cancel' | 'expire';

/** What the next request must carry for the call, by decision: the tool's result, or the refusal's code. */
const EXPECTED: Record<Decision, { code: string | undefined; ran: number }> = {
  approve: { code: undefined, ran: 1 },
  deny: { code: 'approval_denied', ran: 0 },
  cancel: { code: 'cancelled', ran: 0 },
  expire: { code: 'cancelled', ran: 0 },
};

function rows(decisions: readonly Decision[]): [string, Cell, Decision][] {
  return STORE_KINDS.flatMap((store) =>
    CLIENT_KINDS.flatMap((client) =>
      decisions.map((decision): [string, Cell, Decision] => {
        const entry = decision === 'cancel' || decision === 'expire' ? 'complete' : 'resume';
        return [cellName({ store, entry, client }, decision), { store, entry, client }, decision];
      }),
    ),
  );
}

/**
 * The model asks for the gated refund; the decision is taken (stored and resumed on a store opened anew, as
 * after a restart; or the run is cancelled or its deadline passes while the approval waits); then the next
 * model request, through the real SDK, must carry a valid tool result for the call.
 */
async function decideAndContinue(store: StoreKind, client: ClientKind, decision: Decision) {
  const wire = await makeWire(client);
  const tools = new LedgerTools();
  const opened = await openStore(store);
  const runId = `decide-${decision}`;
  wire.answer({ calls: [refund] }, 'json');
  let next: LlmAgentRunResult;
  if (decision === 'expire') {
    const stopped = await new LlmAgentRunner(wire.client(), tools).complete('refund it', {
      store: opened.store,
      runId,
      approvalHandler: () => new Promise(() => undefined),
      signal: AbortSignal.timeout(150),
    });
    expect(stopped.stopReason).toBe('aborted');
  } else {
    const suspended = await new LlmAgentRunner(wire.client(), tools).complete('refund it', {
      store: opened.store,
      runId,
    });
    expect(suspended.stopReason).toBe('awaiting_approval');
  }
  const reopened = await opened.reopen();
  wire.answer({ text: 'done' }, 'json');
  if (decision === 'approve' || decision === 'deny') {
    await decide(reopened, runId, refund, decision === 'approve');
    next = await new LlmAgentRunner(wire.client(), tools).resume(runId, { store: reopened });
  } else {
    if (decision === 'cancel') await reopened.setStatus(runId, 'cancelled');
    next = await new LlmAgentRunner(wire.client(), tools).complete('and now?', {
      store: reopened,
      runId: `${runId}-next`,
      continueFrom: runId,
    });
  }
  expect(next.stopReason).toBe('end_turn');
  expect(tools.ran('refund')).toBe(EXPECTED[decision].ran);
  const sent = wire.toolResults();
  expect(sent.map((result) => [result.callId, failureCode(result.content)])).toEqual([
    ['call_refund', EXPECTED[decision].code],
  ]);
  if (decision === 'approve') expect(JSON.parse(sent[0].content)).toEqual({ refunded: 500 });
  if (sent[0].isError !== undefined) expect(sent[0].isError).toBe(decision !== 'approve');
  expect(wire.violations()).toEqual([]);
}

describe('every decision produces a valid tool result on every wire, and the next request is accepted', () => {
  describe('OpenAI Agents JS #131: approval data is lost when run state is saved', () => {
    it.each(rows(['approve']))('%s', async (_name, cell, decision) => {
      await decideAndContinue(cell.store as StoreKind, cell.client as ClientKind, decision);
    });
  });

  describe('vercel/ai #14428, cloudflare/agents #955: a refused approval sends no tool result and the next request fails', () => {
    it.each(rows(['deny', 'cancel', 'expire']))('%s', async (_name, cell, decision) => {
      await decideAndContinue(cell.store as StoreKind, cell.client as ClientKind, decision);
    });
  });
});
