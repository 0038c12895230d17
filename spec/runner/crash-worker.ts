/**
 * A worker process for the crash and race tests: runs (or resumes) an agent on a SQLite store, or
 * on PostgreSQL when the store argument is `postgres://...#schema`. The `charge`
 * tool is not idempotent, `report` is; each appends a line to a counter file when it runs, and hangs
 * afterwards when the environment asks, so the test can SIGKILL the process mid-call. With
 * `PAUSE_BEFORE_LEASE=1` the store is proxied so that the worker stops right before it asks for the
 * run's lease (after anything it read before), writes `paused` in the directory, and goes on once the
 * test creates `go` there. With `REUSE_IDS=1` the model sends `call_0` in two turns; `HANG_CHARGE_CENTS`
 * hangs only the charge of that amount.
 */
import 'reflect-metadata';
import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ChatMessage,
  LlmAgentRunner,
  RunStore,
  ScriptedModelClient,
  ToolDescriptor,
  ToolInvocation,
  ToolProvider,
} from '../../lib';
import { descriptorFromLlmTool } from '../../lib/contract';
import { PostgresRunStore } from '../../lib/durable/postgres';
import { SqliteRunStore } from '../../lib/durable/sqlite';

const [dbPath, dir, mode, runId] = process.argv.slice(2);
const never = new Promise<never>(() => undefined);

class CrashProvider implements ToolProvider {
  private readonly descriptors: ToolDescriptor[] = [
    descriptorFromLlmTool(
      {
        name: 'charge',
        description: 'Charge a card.',
        inputSchema: {
          type: 'object',
          properties: { cents: { type: 'integer' } },
          required: ['cents'],
          additionalProperties: false,
        },
      },
      { sideEffect: 'write' },
    ),
    descriptorFromLlmTool(
      {
        name: 'report',
        description: 'Write a report.',
        inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      },
      { sideEffect: 'write', idempotency: 'idempotent_with_key' },
    ),
  ];
  listTools(): readonly ToolDescriptor[] {
    return this.descriptors;
  }
  capabilities(): { invocationContext: boolean; idempotencyKey: boolean; heartbeat: boolean; compensation: boolean } {
    return { invocationContext: false, idempotencyKey: true, heartbeat: false, compensation: false };
  }
  async invokeTool(invocation: ToolInvocation): Promise<unknown> {
    appendFileSync(join(dir, `${invocation.toolName}.count`), `${invocation.idempotencyKey}\n`);
    if (process.env[`HANG_${invocation.toolName.toUpperCase()}`] === '1') await never;
    if (
      process.env.HANG_CHARGE_CENTS !== undefined &&
      invocation.arguments.cents === Number(process.env.HANG_CHARGE_CENTS)
    )
      await never;
    const slowMs = Number(process.env.SLOW_TOOLS_MS ?? 0);
    if (slowMs > 0) await new Promise((resolve) => setTimeout(resolve, slowMs));
    return invocation.toolName === 'charge' ? { charged: invocation.arguments.cents } : 'report written';
  }
}

/**
 * With `REUSE_IDS=1`: `call_0` charges 500 in turn 1 and, under the same id, 700 in turn 2 (as OpenAI-compatible
 * servers number calls).
 */
const reusingIds = (messages: readonly ChatMessage[]) => {
  const turn = messages.filter((message) => message.role === 'assistant').length + 1;
  return turn <= 2
    ? { toolCalls: [{ id: 'call_0', name: 'charge', arguments: { cents: turn === 1 ? 500 : 700 } }] }
    : { text: 'done' };
};

const model =
  process.env.REUSE_IDS === '1'
    ? new ScriptedModelClient(Array.from({ length: 4 }, () => reusingIds))
    : new ScriptedModelClient(
        Array.from(
          { length: 4 },
          () => (messages: readonly ChatMessage[]) =>
            messages.some((message) => message.role === 'tool')
              ? { text: 'done' }
              : {
                  toolCalls: [
                    { id: 'call_charge', name: 'charge', arguments: '{"cents":500}' },
                    { id: 'call_report', name: 'report', arguments: '{}' },
                  ],
                },
        ),
      );

/** The store, paused once before its first `acquireLease` until the test says go. */
function pausedBeforeLease(store: RunStore): RunStore {
  let paused = false;
  return new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function') return value;
      if (property !== 'acquireLease' || paused) return (value as (...args: unknown[]) => unknown).bind(target);
      return async (...args: unknown[]) => {
        paused = true;
        writeFileSync(join(dir, 'paused'), '');
        while (!existsSync(join(dir, 'go'))) await new Promise((resolve) => setTimeout(resolve, 20));
        return (value as (...args: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

async function main(): Promise<void> {
  const opened: RunStore = dbPath.startsWith('postgres://')
    ? await PostgresRunStore.open({ connectionString: dbPath.split('#')[0], schema: dbPath.split('#')[1] })
    : new SqliteRunStore(dbPath);
  const store = process.env.PAUSE_BEFORE_LEASE === '1' ? pausedBeforeLease(opened) : opened;
  const runner = new LlmAgentRunner(model, new CrashProvider(), { store, leaseTtlMs: 500 });
  const result = mode === 'start' ? await runner.complete('charge and report', { runId }) : await runner.resume(runId);
  process.stdout.write(
    JSON.stringify({
      stopReason: result.stopReason,
      text: result.text,
      toolCalls: result.toolCalls.map((call) => ({
        toolName: call.toolName,
        outcome: call.outcome,
        content: call.content,
      })),
    }),
  );
  await store.close();
}

main().catch((error: unknown) => {
  process.stderr.write(String(error instanceof Error ? error.stack : error));
  process.exitCode = 1;
});
