/**
 * A worker process for the agent-tree crash spec: starts (`start`) or resumes (`resume`) the tree of `agent-tree.ts`
 * on SQLite, or PostgreSQL for a `postgres://...#schema` store argument, prints the root's result, then with
 * `HOLD=1` stays alive (a server keeping the run while it waits) until it is killed. `decide` approves every pending
 * approval in the tree first, as a fresh process deciding from the store would.
 */
import 'reflect-metadata';
import { RunStore } from '../../lib';
import { childRunsOf } from '../../lib/agents';
import { PostgresRunStore } from '../../lib/durable/postgres';
import { SqliteRunStore } from '../../lib/durable/sqlite';
import { agentTree, approveAll } from './agent-tree';

const [storeArg, dir, mode, runId] = process.argv.slice(2);

async function treeOf(store: RunStore, root: string): Promise<string[]> {
  const children = await childRunsOf(store, root);
  const below = await Promise.all(children.map((child) => treeOf(store, child.runId)));
  return [root, ...below.flat()];
}

async function main(): Promise<void> {
  const store: RunStore = storeArg.startsWith('postgres://')
    ? await PostgresRunStore.open({ connectionString: storeArg.split('#')[0], schema: storeArg.split('#')[1] })
    : new SqliteRunStore(storeArg);
  const root = agentTree(dir, { store, leaseTtlMs: 500 });
  const decided = mode === 'decide' ? await approveAll(store, await treeOf(store, runId)) : [];
  const result = mode === 'start' ? await root.complete('go', { runId }) : await root.resume(runId);
  process.stdout.write(
    `${JSON.stringify({
      decided,
      stopReason: result.stopReason,
      text: result.text,
      waiting: result.toolCalls.flatMap((call) => (call.awaitingApproval === true ? [call.outcome] : [])),
    })}\n`,
  );
  if (process.env.HOLD === '1') setInterval(() => undefined, 1_000);
  else await store.close();
}

main().catch((error: unknown) => {
  process.stderr.write(String(error instanceof Error ? error.stack : error));
  process.exitCode = 1;
});
