import { RunStore } from '../../lib';
import { BudgetKeyStore } from '../../lib/durable';

/** The key budget of a store under test (every built-in store has one). */
function keysOf(store: RunStore): BudgetKeyStore {
  if (store.budgetKeys === undefined) throw new Error('the store keeps no key budgets');
  return store.budgetKeys;
}

const model = (runId: string, turn: number, inputTokens = 10, outputTokens?: number) => ({
  runId,
  reservationId: `model:${turn}`,
  kind: 'model_request' as const,
  inputTokens,
  ...(outputTokens === undefined ? {} : { outputTokens }),
});
const call = (runId: string, callId: string) => ({
  runId,
  reservationId: `call:1:${callId}`,
  kind: 'tool_call' as const,
});

/** The behaviour every store's `budgetKeys` must have; `open` gives a fresh store. */
export function describeBudgetKeys(name: string, open: () => Promise<RunStore>): void {
  describe(`${name} budgetKeys`, () => {
    let store: RunStore;
    let keys: BudgetKeyStore;
    beforeEach(async () => {
      store = await open();
      keys = keysOf(store);
    });
    afterEach(async () => store.close());

    it('sets and loads a key; replacing the limits keeps what was spent', async () => {
      expect(await keys.loadKeyBudget('tenant-a')).toBeUndefined();
      await keys.setKeyBudget('tenant-a', { maxModelRequests: 3 });
      await keys.reserveKeyBudget('tenant-a', model('r1', 1));
      const replaced = await keys.setKeyBudget('tenant-a', { maxModelRequests: 5, maxCostUsd: 1 });
      expect(replaced).toEqual({
        key: 'tenant-a',
        limits: { maxModelRequests: 5, maxCostUsd: 1 },
        spent: { inputTokens: 10, outputTokens: 0, costUsd: 0, toolCalls: 0, modelRequests: 1 },
        inFlight: 1,
      });
      expect(await keys.loadKeyBudget('tenant-a')).toEqual(replaced);
    });

    it('refuses limits that cannot work and a reservation against a key never set', async () => {
      await expect(keys.setKeyBudget('k', { maxToolCalls: -1 })).rejects.toMatchObject({ code: 'record_invalid' });
      await expect(keys.setKeyBudget('k', { maxCostUsd: Number.NaN })).rejects.toMatchObject({
        code: 'record_invalid',
      });
      await expect(keys.setKeyBudget('k', { maxTokens: 5 } as never)).rejects.toThrow(/unknown key budget limit/);
      await expect(keys.setKeyBudget('', {})).rejects.toMatchObject({ code: 'record_invalid' });
      await expect(keys.reserveKeyBudget('nobody', model('r1', 1))).rejects.toMatchObject({
        code: 'budget_key_not_found',
      });
      expect(await keys.loadKeyBudget('k')).toBeUndefined();
    });

    it('caps the output to what the key leaves and refuses once it is spent, naming the limit', async () => {
      await keys.setKeyBudget('k', { maxTotalTokens: 100 });
      const first = await keys.reserveKeyBudget('k', model('r1', 1, 30, 1000));
      expect(first).toMatchObject({ granted: true, outputTokens: 70 });
      await keys.settleKeyBudget(
        'k',
        { runId: 'r1', reservationId: 'model:1' },
        {
          inputTokens: 30,
          outputTokens: 20,
          costUsd: 0,
        },
      );
      expect(await keys.reserveKeyBudget('k', model('r1', 2, 30, 1000))).toMatchObject({
        granted: true,
        outputTokens: 20,
      });
      const refused = await keys.reserveKeyBudget('k', model('r2', 1, 1));
      expect(refused).toMatchObject({ granted: false, limit: 'maxTotalTokens', max: 100 });
      expect((await keys.loadKeyBudget('k'))!.spent).toMatchObject({
        inputTokens: 60,
        outputTokens: 40,
        modelRequests: 2,
      });
    });

    it('counts a reservation id once: reserved again, settled again, released and reserved again', async () => {
      await keys.setKeyBudget('k', { maxModelRequests: 1, maxOutputTokens: 50 });
      const ref = { runId: 'r1', reservationId: 'model:1' };
      expect(await keys.reserveKeyBudget('k', model('r1', 1, 5, 40))).toMatchObject({
        granted: true,
        outputTokens: 40,
      });
      // A resumed run asks for the same request again: granted with the same cap, not counted twice.
      expect(await keys.reserveKeyBudget('k', model('r1', 1, 5, 40))).toMatchObject({
        granted: true,
        outputTokens: 40,
      });
      await keys.releaseKeyBudget('k', ref);
      expect((await keys.loadKeyBudget('k'))!).toMatchObject({
        spent: { inputTokens: 0, outputTokens: 0, modelRequests: 1 },
        inFlight: 0,
      });
      // A retried request: its tokens are reserved again, it is still one request (the limit of 1 allows it).
      expect(await keys.reserveKeyBudget('k', model('r1', 1, 5, 40))).toMatchObject({ granted: true });
      const usage = { inputTokens: 5, outputTokens: 12, costUsd: 0 };
      await keys.settleKeyBudget('k', ref, usage);
      await keys.settleKeyBudget('k', ref, { ...usage, outputTokens: 30 });
      expect((await keys.loadKeyBudget('k'))!).toMatchObject({
        spent: { inputTokens: 5, outputTokens: 12, modelRequests: 1 },
        inFlight: 0,
      });
      expect(await keys.reserveKeyBudget('k', model('r1', 2))).toMatchObject({
        granted: false,
        limit: 'maxModelRequests',
      });
    });

    it('counts tool calls once by their id and refuses past maxToolCalls', async () => {
      await keys.setKeyBudget('k', { maxToolCalls: 2 });
      for (const id of ['a', 'b', 'a'])
        expect(await keys.reserveKeyBudget('k', call('r1', id))).toMatchObject({ granted: true });
      expect(await keys.reserveKeyBudget('k', call('r2', 'a'))).toMatchObject({
        granted: false,
        limit: 'maxToolCalls',
        max: 2,
      });
      expect((await keys.loadKeyBudget('k'))!.spent.toolCalls).toBe(2);
    });

    it('needs a price for a key with maxCostUsd, and caps the output by the dollars left', async () => {
      await keys.setKeyBudget('k', { maxCostUsd: 0.01 });
      await expect(keys.reserveKeyBudget('k', model('r1', 1))).rejects.toMatchObject({ code: 'record_invalid' });
      const price = { inputUsdPerMillionTokens: 1000, outputUsdPerMillionTokens: 2000 };
      // 0.01 - 5 * 0.001 = 0.005 left: 2 output tokens at 0.002.
      expect(await keys.reserveKeyBudget('k', { ...model('r1', 1, 5), price })).toMatchObject({
        granted: true,
        outputTokens: 2,
      });
      expect((await keys.loadKeyBudget('k'))!.spent.costUsd).toBeCloseTo(0.009, 9);
    });

    it('never lets concurrent reservations of one key overshoot', async () => {
      await keys.setKeyBudget('k', { maxModelRequests: 5, maxToolCalls: 7 });
      const answers = await Promise.all([
        ...Array.from({ length: 12 }, (_, index) => keys.reserveKeyBudget('k', model(`r${index}`, 1))),
        ...Array.from({ length: 12 }, (_, index) => keys.reserveKeyBudget('k', call(`r${index}`, 'c'))),
      ]);
      const granted = (from: number, to: number) => answers.slice(from, to).filter((answer) => answer.granted).length;
      expect([granted(0, 12), granted(12, 24)]).toEqual([5, 7]);
      expect((await keys.loadKeyBudget('k'))!.spent).toMatchObject({ modelRequests: 5, toolCalls: 7 });
    });

    it('keeps the first exhaustion recorded for a run', async () => {
      expect(await keys.loadBudgetExhaustion('r1')).toBeUndefined();
      await keys.recordBudgetExhaustion({ runId: 'r1', key: 'k', limit: 'maxToolCalls', max: 2, at: 'tool_call' });
      await keys.recordBudgetExhaustion({ runId: 'r1', limit: 'maxCostUsd', max: 1, at: 'model_request' });
      await keys.recordBudgetExhaustion({ runId: 'r2', limit: 'maxCostUsd', max: 0.5, at: 'model_request' });
      expect(await keys.loadBudgetExhaustion('r1')).toMatchObject({
        runId: 'r1',
        key: 'k',
        limit: 'maxToolCalls',
        max: 2,
        at: 'tool_call',
      });
      expect(await keys.loadBudgetExhaustion('r2')).toMatchObject({ limit: 'maxCostUsd', max: 0.5 });
      expect((await keys.loadBudgetExhaustion('r2'))!.key).toBeUndefined();
    });
  });
}
