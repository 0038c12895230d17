/**
 * The agent the queue specs and the scale benchmark run: three model turns, three tool calls, and a
 * side-effect ledger table in PostgreSQL. `charge` is not idempotent and writes a ledger row each time
 * it runs (no unique constraint: a second execution shows as a duplicate); `notify` is idempotent with a
 * key and writes one too; `lookup` only reads. A prompt starting with `refund` calls `refund`, which needs
 * approval. A prompt starting with `explode` makes the model fail. `HANG_TOOL=<name>` makes that tool
 * hang after its ledger write (so a test can SIGKILL the worker mid-call); `TOOL_DELAY_MS` slows every tool.
 */
import type { Pool } from 'pg';
import {
  ChatMessage,
  LlmAgentRunner,
  ModelRequest,
  ModelResponse,
  ModelToolCall,
  ToolDescriptor,
  ToolInvocation,
  ToolProvider,
} from '../../lib';
import { descriptorFromLlmTool } from '../../lib/contract';
import { ModelStepper } from '../../lib/model';
import type { QueueAgent } from '../../lib/queue';

/** Creates the ledger table in `schema` when missing. */
export async function createLedger(pool: Pool, schema: string): Promise<void> {
  await pool.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  await pool.query(
    `CREATE TABLE IF NOT EXISTS "${schema}".ledger (id BIGSERIAL PRIMARY KEY, run_id TEXT NOT NULL, call_id TEXT NOT NULL, tool TEXT NOT NULL, pid INTEGER NOT NULL, at TIMESTAMPTZ NOT NULL DEFAULT now())`,
  );
}

const objectSchema = (properties: Record<string, unknown> = {}, required: string[] = []) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

class LedgerProvider implements ToolProvider {
  private readonly descriptors: ToolDescriptor[] = [
    descriptorFromLlmTool(
      {
        name: 'charge',
        description: 'Charge a card.',
        inputSchema: objectSchema({ cents: { type: 'integer' } }, ['cents']),
      },
      { sideEffect: 'write', approval: 'never' },
    ),
    descriptorFromLlmTool(
      { name: 'notify', description: 'Notify the customer.', inputSchema: objectSchema() },
      { sideEffect: 'write', idempotency: 'idempotent_with_key', approval: 'never' },
    ),
    descriptorFromLlmTool(
      { name: 'lookup', description: 'Look up the order.', inputSchema: objectSchema() },
      { sideEffect: 'read', idempotency: 'idempotent', approval: 'never' },
    ),
    descriptorFromLlmTool(
      {
        name: 'refund',
        description: 'Refund a card.',
        inputSchema: objectSchema({ cents: { type: 'integer' } }, ['cents']),
      },
      { sideEffect: 'write', approval: 'always' },
    ),
  ];

  constructor(
    private readonly pool: Pool,
    private readonly schema: string,
  ) {}

  listTools(): readonly ToolDescriptor[] {
    return this.descriptors;
  }

  capabilities(): { invocationContext: boolean; idempotencyKey: boolean; heartbeat: boolean; compensation: boolean } {
    return { invocationContext: false, idempotencyKey: true, heartbeat: false, compensation: false };
  }

  async invokeTool(invocation: ToolInvocation): Promise<unknown> {
    if (invocation.toolName !== 'lookup')
      await this.pool.query(
        `INSERT INTO "${this.schema}".ledger (run_id, call_id, tool, pid) VALUES ($1, $2, $3, $4)`,
        [invocation.runId, invocation.callId, invocation.toolName, process.pid],
      );
    if (process.env.HANG_TOOL === invocation.toolName) await new Promise<never>(() => undefined);
    const delayMs = Number(process.env.TOOL_DELAY_MS ?? 0);
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    return invocation.toolName === 'lookup' ? { order: 'o-1', state: 'paid' } : { done: invocation.toolName };
  }
}

/** Turn 1: charge (or refund); turn 2: notify and lookup; turn 3: the answer. */
class LedgerModel implements ModelStepper {
  readonly modelName = 'ledger-model';

  async step(request: ModelRequest): Promise<ModelResponse> {
    const messages: readonly ChatMessage[] = request.messages;
    const first = messages.find((message) => message.role === 'user')?.content ?? '';
    const prompt = typeof first === 'string' ? first : '';
    if (prompt.startsWith('explode')) throw new Error('the model exploded');
    const turns = messages.filter((message) => message.role === 'assistant').length;
    const calls = (list: ModelToolCall[]): ModelResponse => ({
      text: '',
      toolCalls: list,
      stopReason: 'tool_use',
      usage: { inputTokens: 1, outputTokens: 1 },
    });
    if (turns === 0)
      return calls([
        { id: 'call_1', name: prompt.startsWith('refund') ? 'refund' : 'charge', arguments: '{"cents":500}' },
      ]);
    if (turns === 1)
      return calls([
        { id: 'call_2', name: 'notify', arguments: '{}' },
        { id: 'call_3', name: 'lookup', arguments: '{}' },
      ]);
    return { text: 'done', toolCalls: [], stopReason: 'end_turn', usage: { inputTokens: 1, outputTokens: 1 } };
  }
}

/** The ledger agent, writing to the ledger table of `schema` through `pool`. */
export function ledgerAgent(pool: Pool, schema: string): QueueAgent {
  return { runner: new LlmAgentRunner(new LedgerModel(), new LedgerProvider(pool, schema), { maxSteps: 8 }) };
}
