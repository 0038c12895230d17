/**
 * Agents for the queue specs that count what they execute: each runner's model calls the tool `act`
 * once, then answers; `calls` counts every `act` the provider executed and every `resume()` the runner got.
 */
import type { Pool } from 'pg';
import { descriptorFromLlmTool } from '../../lib/contract';
import { LlmAgentRunner, ModelRequest, ModelResponse, ToolDescriptor, ToolProvider } from '../../lib';
import { ModelStepper } from '../../lib/model';
import type { QueueAgent } from '../../lib/queue';
import type { LlmAgentRunOptions } from '../../lib/runner/run-options';

/** How often an agent's runner was resumed and its tool executed. */
export interface CallCounts {
  resumes: number;
  toolCalls: number;
}

class CountingProvider implements ToolProvider {
  private readonly descriptors: ToolDescriptor[] = [
    descriptorFromLlmTool(
      {
        name: 'act',
        description: 'Do the thing.',
        inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      },
      { sideEffect: 'write', approval: 'never' },
    ),
  ];

  constructor(private readonly counts: CallCounts) {}

  listTools(): readonly ToolDescriptor[] {
    return this.descriptors;
  }

  async invokeTool(): Promise<unknown> {
    this.counts.toolCalls += 1;
    return { done: true };
  }
}

class ActOnceModel implements ModelStepper {
  readonly modelName = 'act-once';

  async step(request: ModelRequest): Promise<ModelResponse> {
    const turns = request.messages.filter((message) => message.role === 'assistant').length;
    if (turns === 0)
      return {
        text: '',
        toolCalls: [{ id: 'call_1', name: 'act', arguments: '{}' }],
        stopReason: 'tool_use',
        usage: { inputTokens: 1, outputTokens: 1 },
      };
    return { text: 'done', toolCalls: [], stopReason: 'end_turn', usage: { inputTokens: 1, outputTokens: 1 } };
  }
}

/** An agent whose resumes and tool calls are counted in `counts`. */
export function countingAgent(counts: CallCounts): QueueAgent {
  const runner = new LlmAgentRunner(new ActOnceModel(), new CountingProvider(counts), { maxSteps: 4 });
  return {
    runner: {
      resume(runId: string, options?: LlmAgentRunOptions) {
        counts.resumes += 1;
        return runner.resume(runId, options);
      },
    },
  };
}

/**
 * Every stored row of a run in the store's tables, as PostgreSQL's JSON text of each row: equal texts mean an untouched
 * run.
 */
export async function storedRowsOf(pool: Pool, storeSchema: string, runId: string): Promise<string[]> {
  const tables = [
    'wuwe_runs',
    'wuwe_messages',
    'wuwe_tool_calls',
    'wuwe_tool_output_projections',
    'wuwe_approvals',
    'wuwe_leases',
  ];
  const texts: string[] = [];
  for (const table of tables) {
    const rows = await pool.query<{ row: string }>(
      `SELECT row_to_json(t)::text AS row FROM "${storeSchema}".${table} t WHERE run_id = $1 ORDER BY row_to_json(t)::text`,
      [runId],
    );
    texts.push(`${table}: ${rows.rows.map((row) => row.row).join('\n')}`);
  }
  return texts;
}
