/**
 * A worker process for the conversation test: runs one conversation (a tool call, then an answer)
 * on a SQLite store and a SqliteMemory in the given files, under the given run id, then exits.
 */
import 'reflect-metadata';
import { LlmAgentRunner, ScriptedModelClient } from '../../lib';
import { SqliteMemory } from '../../lib/modules/memory';
import { SqliteRunStore } from '../../lib/durable/sqlite';
import { FunctionProvider } from './support';

const [dbPath, memoryPath, runId] = process.argv.slice(2);

async function main(): Promise<void> {
  const store = new SqliteRunStore(dbPath);
  const memory = new SqliteMemory(memoryPath);
  const provider = new FunctionProvider().add(
    'lookup',
    () => ({ order: 'A-17', status: 'shipped' }),
    {},
    { order: { type: 'string' } },
  );
  const model = new ScriptedModelClient([
    { toolCalls: [{ id: 'c1', name: 'lookup', arguments: { order: 'A-17' } }] },
    { text: 'Order A-17 has shipped.' },
  ]);
  await new LlmAgentRunner(model, provider).complete('Where is order A-17?', { store, memory, runId });
  await store.close();
  memory.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
