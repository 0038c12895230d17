/**
 * A worker process for the key budget specs: opens a SQLite or PostgreSQL store, waits for 'go', and runs one agent
 * with `budgetKey` whose model asks for one tool call a turn, `turns` times. Reports what ran. In mode `crash` the
 * process dies inside its second model request (its key reservation stays in flight), as a crash would.
 */
import 'reflect-metadata';
import { LlmAgentRunner, RunStore, ScriptedModelClient } from '../../../lib';
import { PostgresRunStore } from '../../../lib/durable/postgres';
import { SqliteRunStore } from '../../../lib/durable/sqlite';
import { FunctionProvider } from '../support';

/** The options of a worker (its one argument, as JSON). */
export interface KeyWorkerOptions {
  readonly kind: 'sqlite' | 'postgres';
  readonly location: string;
  readonly schema?: string;
  readonly runId: string;
  readonly key: string;
  readonly turns: number;
  readonly mode?: 'run' | 'crash';
}

/** What a worker reports to the parent. */
export interface KeyWorkerReport {
  readonly runId: string;
  readonly stopReason: string;
  readonly executed: number;
  readonly exhausted?: { readonly key?: string; readonly limit: string };
}

/** The store of the options. */
export async function openKeyStore(options: Pick<KeyWorkerOptions, 'kind' | 'location' | 'schema'>): Promise<RunStore> {
  return options.kind === 'sqlite'
    ? new SqliteRunStore(options.location)
    : PostgresRunStore.open({ connectionString: options.location, schema: options.schema, maxConnections: 2 });
}

/** A scripted model asking for one `ping` a turn, `turns` times, then answering; usage 10 in, 5 out a response. */
export function pingModel(turns: number, crashAtStep?: number): ScriptedModelClient {
  let step = 0;
  const reply = () => {
    step++;
    if (step === crashAtStep) process.exit(9);
    return step > turns
      ? { text: 'done', usage: { inputTokens: 10, outputTokens: 5 } }
      : { toolCalls: [{ name: 'ping', arguments: { n: step } }], usage: { inputTokens: 10, outputTokens: 5 } };
  };
  return new ScriptedModelClient([reply], { whenExhausted: 'repeat' });
}

/** The provider with the one `ping` tool. */
export function pingProvider(): FunctionProvider {
  return new FunctionProvider().add('ping', () => 'pong', { sideEffect: 'none' }, { n: { type: 'integer' } });
}

async function work(options: KeyWorkerOptions): Promise<KeyWorkerReport> {
  const store = await openKeyStore(options);
  try {
    const provider = pingProvider();
    const model = pingModel(options.turns, options.mode === 'crash' ? 2 : undefined);
    const result = await new LlmAgentRunner(model, provider).complete('Ping.', {
      store,
      runId: options.runId,
      budgetKey: options.key,
      maxSteps: options.turns + 2,
      // A crashed worker's lease runs out soon, so the spec can resume the run.
      ...(options.mode === 'crash' ? { leaseTtlMs: 300 } : {}),
    });
    const exhausted = result.keyBudget?.exhausted;
    return {
      runId: options.runId,
      stopReason: result.stopReason,
      executed: provider.calls.length,
      ...(exhausted === undefined ? {} : { exhausted: { key: exhausted.key, limit: exhausted.limit } }),
    };
  } finally {
    await store.close();
  }
}

if (require.main === module) {
  const options = JSON.parse(process.argv[2]) as KeyWorkerOptions;
  process.send?.('ready');
  process.once('message', () => {
    work(options).then(
      (report) => process.send?.(report, () => process.exit(0)),
      (error: unknown) => {
        console.error(error);
        process.exit(2);
      },
    );
  });
}
