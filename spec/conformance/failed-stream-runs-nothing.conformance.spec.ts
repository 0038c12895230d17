import { LlmAgentRunner } from '../../lib';
import { cells, drained, Cell } from './support/matrix';
import { LedgerTools } from './support/side-effects';
import { STORE_KINDS, useScenarioStores } from './support/stores';
import { ClientKind, useWires, WIRE_CLIENT_KINDS } from './support/wires';

const makeWire = useWires();
const openStore = useScenarioStores('failed-stream');
const lookup = (id: string) => ({ id: `call_${id}`, name: 'lookup', arguments: { id } });

describe('a model stream that fails after tool-call deltas runs none of its calls', () => {
  describe('vercel/ai #19932: a retried model stream runs the tools of the failed attempt', () => {
    it.each([
      ...cells(['memory'], ['stream'], WIRE_CLIENT_KINDS),
      ...cells(
        STORE_KINDS.filter((store) => store !== 'memory'),
        ['stream'],
        ['anthropic', 'openai-chat'],
      ),
    ])('%s', async (_name, cell: Cell) => {
      const wire = await makeWire(cell.client as ClientKind);
      const tools = new LedgerTools();
      const { store } = await openStore(cell.store as 'memory');
      wire.answerCutAfterToolDeltas({ calls: [lookup('failed-1'), lookup('failed-2')] });
      const runner = () => new LlmAgentRunner(wire.client(), tools);
      await expect(drained(runner().stream('look up', { store, runId: 'cut' }))).rejects.toThrow();
      expect(tools.executions).toEqual([]);
      const failed = (await store.loadRun('cut'))!;
      expect(failed.status).toBe('failed');
      expect(failed.toolCalls).toEqual([]);
      // The retry (a resume) gets a complete answer: only its calls run.
      wire.answer({ calls: [lookup('completed')] }, 'stream');
      wire.answer({ text: 'found' }, 'stream');
      const result = await drained(runner().resumeStream('cut', { store }));
      expect(result.stopReason).toBe('end_turn');
      expect(tools.executions.map((call) => call.arguments.id)).toEqual(['completed']);
      expect(wire.toolResults().map((sent) => sent.callId)).toEqual(['call_completed']);
      expect(wire.violations()).toEqual([]);
    });
  });
});
