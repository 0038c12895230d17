/**
 * A durable run: the record lives in a SQLite file, the run suspends for an approval, and a second
 * runner (standing for another process, after a restart) stores the decision and resumes it.
 *
 * 1. `complete(..., { store })` with no `approvalHandler`: the weather call runs and is admitted to the
 *    file; the refund needs approval, so the run stops as `awaiting_approval`.
 * 2. A new store on the same file and a new runner: read the pending approval, decide it (bound to the
 *    tool name and the SHA-256 of the arguments), and `resume(runId)`. The weather call is not run again:
 *    its admitted outcome is reused.
 *
 * Needs `better-sqlite3`. Run: `npx ts-node --transpile-only samples/03-durable/main.ts` (docs/durable-runs.md).
 */
import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Contract, Field, LlmAgentRunner, ReflectedToolProvider, ScriptedModelClient, Tool } from '../../lib';
import { SqliteRunStore } from '../../lib/durable/sqlite';

/** How many times each tool ran, across both runners. */
export const executions = { weather: 0, refund: 0 };

@Tool({ description: 'Get the current weather for a city.' })
@Contract({ sideEffect: 'read', idempotency: 'idempotent' })
export class GetWeather {
  @Field({ description: 'City name.' })
  city!: string;

  invoke(): string {
    executions.weather += 1;
    return `${this.city} is 22 degrees.`;
  }
}

@Tool({ description: 'Refund an order.' })
@Contract({ sideEffect: 'destructive', approval: 'always' })
export class RefundOrder {
  @Field({ description: 'Order id.' })
  orderId!: string;

  invoke(): string {
    executions.refund += 1;
    return `order ${this.orderId} refunded`;
  }
}

/** The agent, as each process builds it: the same tools, a model that can continue the conversation. */
function buildRunner(): LlmAgentRunner {
  const model = new ScriptedModelClient(
    [
      (messages) =>
        messages.some((message) => message.role === 'tool')
          ? { text: 'Refunded order 42; it is 22 degrees in Tokyo.' }
          : {
              toolCalls: [
                { name: 'GetWeather', arguments: '{"city":"Tokyo"}' },
                { name: 'RefundOrder', arguments: '{"orderId":"42"}' },
              ],
            },
    ],
    { whenExhausted: 'repeat' },
  );
  return new LlmAgentRunner(model, new ReflectedToolProvider([GetWeather, RefundOrder]));
}

/** What the sample found: the status after each phase and how often each tool ran. */
export interface DurableSampleOutput {
  readonly firstStopReason: string;
  readonly finalStatus: string | undefined;
  readonly answer: string;
  readonly executions: { readonly weather: number; readonly refund: number };
}

/** Runs the sample in a temporary directory (or `directory`) and returns what it found. */
export async function main(
  print: (line: string) => void = console.log,
  directory = mkdtempSync(join(tmpdir(), 'wuwe-durable-')),
): Promise<DurableSampleOutput> {
  const file = join(directory, 'runs.db');
  try {
    // Process 1: the run suspends for the refund's approval.
    const firstStore = new SqliteRunStore(file);
    const first = await buildRunner().complete('Refund order 42 and tell me the weather in Tokyo', {
      store: firstStore,
    });
    print(`run ${first.runId}: ${first.stopReason}`);
    await firstStore.close();

    // Process 2, later: decide the pending approval and resume the run from the file.
    const store = new SqliteRunStore(file);
    try {
      const record = await store.loadRun(first.runId);
      const pending = record!.approvals.find((approval) => approval.state === 'pending')!;
      print(
        `pending: ${pending.toolName} ${pending.callId} (arguments sha256 ${pending.argumentsSha256.slice(0, 12)}...)`,
      );
      await store.decideApproval(
        first.runId,
        pending.callId,
        {
          approved: true,
          toolName: pending.toolName,
          argumentsSha256: pending.argumentsSha256,
          decidedBy: 'ops@example.com',
        },
        { turn: pending.turn },
      );
      const resumed = await buildRunner().resume(first.runId, { store });
      const finalStatus = (await store.loadRun(first.runId))?.status;
      print(`resumed: ${resumed.stopReason}, status ${finalStatus}: ${resumed.text}`);
      print(`executions: weather ${executions.weather}, refund ${executions.refund}`);
      return { firstStopReason: first.stopReason, finalStatus, answer: resumed.text, executions: { ...executions } };
    } finally {
      await store.close();
    }
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
