import { AgentRunRecord, LlmAgentRunner, MemoryRunStore, ScriptedModelClient } from '../../lib';
import { FunctionProvider } from './support';

const runner = (): LlmAgentRunner =>
  new LlmAgentRunner(new ScriptedModelClient([{ text: 'hi' }]), new FunctionProvider());

/** A store that counts its verified reads: `loadRun` verifies the record's chain before it returns the record. */
class CountingStore extends MemoryRunStore {
  verifiedReads = 0;

  override async loadRun(runId: string): Promise<AgentRunRecord | undefined> {
    this.verifiedReads += 1;
    return super.loadRun(runId);
  }
}

async function storeWithOpenRun(): Promise<CountingStore> {
  const store = new CountingStore();
  await store.createRun({ runId: 'r', messages: [{ role: 'user', content: 'hello' }] });
  store.verifiedReads = 0;
  return store;
}

describe('resume verifies the record once', () => {
  it('resume() reads the run verified once: the leased read it continues from', async () => {
    const store = await storeWithOpenRun();
    const result = await runner().resume('r', { store });
    expect(result.stopReason).toBe('end_turn');
    expect(store.verifiedReads).toBe(1);
  });

  it('resumeStream() reads the run verified once', async () => {
    const store = await storeWithOpenRun();
    const stream = runner().resumeStream('r', { store });
    for await (const _event of stream);
    expect(store.verifiedReads).toBe(1);
  });

  it('a run the store does not have is still run_conflict, with no lease taken', async () => {
    const store = await storeWithOpenRun();
    await expect(runner().resume('missing', { store })).rejects.toMatchObject({
      code: 'run_conflict',
    });
  });
});
