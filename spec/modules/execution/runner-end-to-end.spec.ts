import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ScriptedModelClient } from '../../../lib/model/scripted-model-client';
import { ExecutionToolProvider } from '../../../lib/modules/execution/execution-tool-provider';
import { KnowledgeIndex } from '../../../lib/modules/knowledge/knowledge-index';
import { KnowledgeToolProvider } from '../../../lib/modules/knowledge/knowledge-tool-provider';
import { MemoryToolProvider } from '../../../lib/modules/memory/memory-tool-provider';
import { SqliteMemory } from '../../../lib/modules/memory/sqlite-memory';
import { SqliteNoteStore } from '../../../lib/modules/memory/sqlite-note-store';
import { LlmAgentEvent } from '../../../lib/runner/runner-events';

describe('module providers through LlmAgentRunner', () => {
  let directory: string;
  beforeEach(() => {
    directory = mkdtempSync(path.join(tmpdir(), 'wuwe-modules-e2e-'));
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('surfaces job_run progress as tool_heartbeat events and records the run in one SQLite file', async () => {
    const file = path.join(directory, 'agent.db');
    const execution = new ExecutionToolProvider({
      jobs: {
        reindex: async (input, { reportProgress }) => {
          const batches = (input as { batches: number }).batches;
          for (let batch = 1; batch <= batches; batch++)
            reportProgress({ fraction: batch / batches, message: `batch ${batch}` });
          return { batches };
        },
      },
    });
    const index = new KnowledgeIndex(file);
    index.addDocument({ source: 'runbook.md', text: '# Runbook\n\n## Reindex\n\nReindex after every schema change.' });
    const store = new SqliteNoteStore(file);
    const memory = new SqliteMemory(file);
    const model = new ScriptedModelClient([
      { toolCalls: [{ id: 'c1', name: 'knowledge_search', arguments: { query: 'when to reindex' } }] },
      { toolCalls: [{ id: 'c2', name: 'job_run', arguments: { kind: 'reindex', input: { batches: 3 } } }] },
      {
        toolCalls: [
          { id: 'c3', name: 'memory_remember', arguments: { key: 'last-reindex', text: 'Reindexed in 3 batches.' } },
        ],
      },
      { toolCalls: [{ id: 'c4', name: 'memory_forget', arguments: { key: 'last-reindex' } }] },
      { text: 'Done.' },
    ]);
    const events: LlmAgentEvent[] = [];
    const runner = model.bindToolsWith(
      { memory, runId: 'run-e2e', onEvent: (event) => events.push(event) },
      new KnowledgeToolProvider({ index }),
      execution,
      new MemoryToolProvider({ store }),
    );

    const result = await runner.complete('Reindex if the runbook says so, and note it.');

    expect(result.stopReason).toBe('end_turn');
    const heartbeats = events.filter((event) => event.type === 'tool_heartbeat');
    expect(heartbeats.map((event) => [event.toolName, event.progress])).toEqual([
      ['job_run', { fraction: 1 / 3, message: 'batch 1' }],
      ['job_run', { fraction: 2 / 3, message: 'batch 2' }],
      ['job_run', { fraction: 1, message: 'batch 3' }],
    ]);
    const outcomes = Object.fromEntries(result.toolCalls.map((call) => [call.toolName, call.outcome]));
    expect(outcomes.knowledge_search.data).toMatchObject({
      hits: [{ source: 'runbook.md', heading: 'Runbook > Reindex' }],
    });
    expect(outcomes.job_run.data).toMatchObject({ status: 'succeeded', result: { batches: 3 } });
    expect(outcomes.memory_remember.data).toEqual({ key: 'last-reindex', version: 1, status: 'created' });
    expect(outcomes.memory_forget.error?.code).toBe('approval_denied');
    expect(store.get('default', 'last-reindex')?.text).toBe('Reindexed in 3 batches.');

    memory.close();
    const reopened = new SqliteMemory(file);
    const recorded = reopened.messages('run-e2e');
    expect(recorded[0]).toEqual({ role: 'user', content: 'Reindex if the runbook says so, and note it.' });
    expect(recorded.filter((message) => message.role === 'tool').map((message) => message.toolName)).toEqual([
      'knowledge_search',
      'job_run',
      'memory_remember',
      'memory_forget',
    ]);
    reopened.close();
    store.close();
    index.close();
  });

  it('lets the runner stop a job_run that goes silent past its heartbeat idle limit, aborting the job', async () => {
    let jobSignal: AbortSignal | undefined;
    const execution = new ExecutionToolProvider({
      heartbeatIdleTimeoutMs: 50,
      jobs: {
        hang: (_input, { signal }) => {
          jobSignal = signal;
          return new Promise((_, reject) =>
            signal.addEventListener('abort', () => reject(new Error('stopped')), { once: true }),
          );
        },
      },
    });
    const model = new ScriptedModelClient([
      { toolCalls: [{ id: 'h1', name: 'job_run', arguments: { kind: 'hang', input: null } }] },
      { text: 'gave up' },
    ]);
    const events: LlmAgentEvent[] = [];
    const result = await model.bindToolsWith({ onEvent: (event) => events.push(event) }, execution).complete('run it');

    expect(events).toContainEqual(
      expect.objectContaining({ type: 'tool_timeout', toolName: 'job_run', limit: 'heartbeat', limitMs: 50 }),
    );
    expect(result.toolCalls[0].outcome.error?.code).toBe('heartbeat_timeout');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(jobSignal?.aborted).toBe(true);
  });
});
