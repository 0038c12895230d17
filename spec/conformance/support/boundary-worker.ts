/**
 * A worker process for the crash scenarios: starts a run on the store at the
 * given address (a SQLite path, or `postgres://...#schema`) whose model asks, in turn 1, for `charge` (a
 * non-idempotent write that can ask for compensation) and then answers `done`. Every execution of `charge`
 * appends a line to `charge.ledger` in the directory, every compensation one to `compensate.ledger`.
 *
 * `STOP_AT` names the step boundary where the process writes `at-boundary` in the directory
 * and hangs, so the test can SIGKILL it there:
 * - `before-admission`: `charge` ran, its outcome is not admitted;
 * - `after-admission`: the outcome is admitted, the Tool message not appended;
 * - `before-next-request`: the Tool message is appended, the next model request not sent;
 * - `during-compensation`: `charge` failed asking for compensation, which is running;
 * - `approval-pending`: `charge` needs approval (`GATED=1`) and the approval handler has not answered.
 */
import 'reflect-metadata';
import type { RunStore } from '../../../lib';
import { PostgresRunStore } from '../../../lib/durable/postgres';
import { SqliteRunStore } from '../../../lib/durable/sqlite';
import { boundaryAgent } from './boundary-agent';

const [address, dir, runId] = process.argv.slice(2);

async function openStoreAt(at: string): Promise<RunStore> {
  if (!at.startsWith('postgres://')) return new SqliteRunStore(at);
  const [connectionString, schema] = at.split('#');
  return PostgresRunStore.open({ connectionString, schema });
}

async function main(): Promise<void> {
  const store = await openStoreAt(address);
  const { runner, approvalHandler } = boundaryAgent(store, dir, process.env.STOP_AT);
  await runner.complete('charge 500', { runId, ...(approvalHandler ? { approvalHandler } : {}) });
  await store.close();
}

main().catch((error: unknown) => {
  process.stderr.write(String(error instanceof Error ? error.stack : error));
  process.exitCode = 1;
});
