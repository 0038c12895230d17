import { join } from 'node:path';
import { LlmAgentRunner, MemoryRunStore, ScriptedModelClient } from '../../lib';
import type { RunStore } from '../../lib';
import type { RunEventLog } from '../../lib/durable';
import { PostgresRunStore } from '../../lib/durable/postgres';
import { SqliteRunStore } from '../../lib/durable/sqlite';
import { requirePostgresUrl, TestSchemas } from '../durable/postgres-env';
import { makeTempDir } from '../durable/temp-dir';
import { FunctionProvider } from './support';

const temp = makeTempDir('kept-new-run');
const schemas = new TestSchemas();
afterAll(async () => {
  temp.cleanup();
  await schemas.dropAll();
});

type EventStore = RunStore & RunEventLog;

describe.each<[string, () => Promise<EventStore>]>([
  ['MemoryRunStore', async () => new MemoryRunStore()],
  ['SqliteRunStore', async () => new SqliteRunStore(join(temp.path, `${Math.random().toString(36).slice(2)}.db`))],
  [
    'PostgresRunStore',
    async () => PostgresRunStore.open({ connectionString: requirePostgresUrl(), schema: schemas.fresh() }),
  ],
])('a new run with keepEvents, on %s', (_name, open) => {
  it('completes, and keeps every event of its stream in order, run_started first (the run is created after it)', async () => {
    const store = await open();
    try {
      const provider = new FunctionProvider().add('lookup', () => 'found');
      const runner = new LlmAgentRunner(
        new ScriptedModelClient([{ toolCalls: [{ id: 'c1', name: 'lookup', arguments: {} }] }, { text: 'done' }], {
          whenExhausted: 'repeat',
        }),
        provider,
      );
      for (let run = 0; run < 3; run++) {
        const result = await runner.complete('go', { store, runId: `kept-${run}`, keepEvents: {} });
        expect(result.text).toBe('done');
        const types = (await store.readRunEvents(`kept-${run}`)).map((kept) => kept.event.type);
        expect(types[0]).toBe('run_started');
        expect(types.at(-1)).toBe('run_finished');
        expect(types).toContain('tool_call_finished');
      }
      expect(provider.calls).toHaveLength(3);
    } finally {
      await store.close();
    }
  });
});
