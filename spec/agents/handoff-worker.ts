/**
 * A worker process for the handoff crash spec: starts (`start`) or resumes (`resume`) the run `runId` of the handoff
 * chain of `handoff-agents.ts` (refunds need no approval) on SQLite, or PostgreSQL for a `postgres://...#schema` store
 * argument. With `HOLD=<agent>` that agent's model hangs on its first request and the worker prints
 * `{"holding":"<agent>"}`, for the spec to kill it there; otherwise it prints the run's result and the tools each
 * agent's model was offered in this process.
 */
import 'reflect-metadata';
import { RunStore } from '../../lib';
import { PostgresRunStore } from '../../lib/durable/postgres';
import { SqliteRunStore } from '../../lib/durable/sqlite';
import { handoffChain } from './handoff-agents';

const [storeArg, dir, mode, runId] = process.argv.slice(2);

async function main(): Promise<void> {
  const store: RunStore = storeArg.startsWith('postgres://')
    ? await PostgresRunStore.open({ connectionString: storeArg.split('#')[0], schema: storeArg.split('#')[1] })
    : new SqliteRunStore(storeArg);
  const hold = process.env.HOLD === '' ? undefined : process.env.HOLD;
  const { triage, models } = handoffChain(dir, { store, leaseTtlMs: 500 }, { hold, refundApproval: 'never' });
  const result =
    mode === 'start' ? await triage.complete('I was charged twice', { runId }) : await triage.resume(runId);
  const offered = Object.fromEntries(
    Object.entries(models).map(([name, model]) => [
      name,
      model.requests.map((request) => request.tools.map((tool) => tool.name)),
    ]),
  );
  process.stdout.write(`${JSON.stringify({ stopReason: result.stopReason, text: result.text, offered })}\n`);
  await store.close();
}

main().catch((error: unknown) => {
  process.stderr.write(String(error instanceof Error ? error.stack : error));
  process.exitCode = 1;
});
