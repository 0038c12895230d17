import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { canonicalArgumentsSha256 } from '../../lib/durable';
import { LlmAgentRunner, MemoryRunStore, ScriptedModelClient, RunStore, ChatMessage } from '../../lib';
import { SqliteRunStore } from '../../lib/durable/sqlite';
import { makeTempDir } from '../durable/temp-dir';
import { FunctionProvider } from './support';

const temp = makeTempDir('durable-runner');
afterAll(() => temp.cleanup());

function finalAnswerAfterTools(calls: { id: string; name: string; arguments: string }[]) {
  return new ScriptedModelClient([
    (messages: readonly ChatMessage[]) =>
      messages.some((m) => m.role === 'tool') ? { text: 'all done' } : { toolCalls: calls },
    (messages: readonly ChatMessage[]) =>
      messages.some((m) => m.role === 'tool') ? { text: 'all done' } : { toolCalls: calls },
    { text: 'all done' },
  ]);
}

describe('durable runs (LlmAgentRunOptions.store)', () => {
  it('runs a turn of many parallel calls without a listener warning on the run signal, with or without a host signal', () => {
    // Node reports listener warnings on the real process, which a spec's sandbox does not see: run it in a child.
    const script = `
      const { LlmAgentRunner, MemoryRunStore, ScriptedModelClient } = require('./lib');
      const { FunctionProvider } = require('./spec/runner/support');
      const calls = Array.from({ length: 16 }, (_, index) => ({ id: 'p' + index, name: 'slow', arguments: '{}' }));
      const provider = new FunctionProvider().add('slow', () => new Promise((resolve) => setTimeout(() => resolve('ok'), 5)));
      (async () => {
        for (const signal of [undefined, new AbortController().signal]) {
          const model = new ScriptedModelClient([{ toolCalls: calls }, { text: 'done' }]);
          const result = await new LlmAgentRunner(model, provider).complete('go', { store: new MemoryRunStore(), signal });
          console.log(result.toolCalls.filter((call) => call.outcome.ok).length);
        }
      })();
    `;
    const child = spawnSync(process.execPath, ['-r', 'ts-node/register/transpile-only', '-e', script], {
      cwd: join(__dirname, '../..'),
      encoding: 'utf8',
    });
    expect(child.stdout.trim().split('\n')).toEqual(['16', '16']);
    expect(child.stderr).not.toContain('MaxListenersExceededWarning');
  });

  it('admits every outcome, audits projections and stores the conversation and status', async () => {
    const store = new SqliteRunStore(`${temp.path}/complete.db`);
    const provider = new FunctionProvider().add('greet', () => 'x'.repeat(10_000), {}, { name: { type: 'string' } });
    const model = finalAnswerAfterTools([{ id: 'c1', name: 'greet', arguments: '{"name":"Ada"}' }]);
    const result = await new LlmAgentRunner(model, provider).complete('hello', {
      store,
      runId: 'run-complete',
      toolOutputProjection: { maxBytes: 1024, maxTokens: 1000 },
    });
    expect(result.stopReason).toBe('end_turn');
    const record = (await store.loadRun('run-complete'))!;
    expect(record.status).toBe('completed');
    expect(record.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(record.toolCalls).toHaveLength(1);
    expect(record.toolCalls[0]).toMatchObject({
      callId: 'c1',
      toolName: 'greet',
      status: 'admitted',
      attempts: 1,
      argumentsSha256: canonicalArgumentsSha256({ name: 'Ada' }),
    });
    expect(record.toolCalls[0].outcome!.text).toHaveLength(10_000);
    expect(record.toolCalls[0].idempotencyKey).toBe(result.toolCalls[0].idempotencyKey);
    expect(record.toolOutputProjections).toHaveLength(1);
    expect(record.toolOutputProjections[0].report.truncated).toBe(true);
    expect((record.messages[2] as any).content).toBe(result.toolCalls[0].content);
    expect(record.lease).toBeUndefined();
    await store.close();
  });

  describe('durable approvals', () => {
    async function suspendedRun(store: RunStore) {
      const provider = new FunctionProvider()
        .add('drop_table', () => 'dropped', { sideEffect: 'destructive' }, { table: { type: 'string' } })
        .add('count_rows', () => 42, { sideEffect: 'read' });
      const calls = [
        { id: 'c_drop', name: 'drop_table', arguments: '{"table":"orders"}' },
        { id: 'c_count', name: 'count_rows', arguments: '{}' },
      ];
      const runner = new LlmAgentRunner(finalAnswerAfterTools(calls), provider);
      const result = await runner.complete('clean up', { store, runId: 'run-approval' });
      return { provider, runner, result, calls };
    }

    it('suspends the run without executing, and another runner resumes it after approval', async () => {
      const store = new SqliteRunStore(`${temp.path}/approve.db`);
      const first = await suspendedRun(store);
      expect(first.result.stopReason).toBe('awaiting_approval');
      expect(first.provider.calls.map((c) => c.toolName)).toEqual(['count_rows']);
      const record = (await store.loadRun('run-approval'))!;
      expect(record.status).toBe('awaiting_approval');
      expect(record.approvals).toEqual([
        expect.objectContaining({ callId: 'c_drop', toolName: 'drop_table', state: 'pending' }),
      ]);

      await expect(
        store.decideApproval('run-approval', 'c_drop', {
          approved: true,
          toolName: 'drop_table',
          argumentsSha256: canonicalArgumentsSha256({ table: 'users' }),
        }),
      ).rejects.toMatchObject({ code: 'approval_mismatch' });
      await store.decideApproval('run-approval', 'c_drop', {
        approved: true,
        toolName: 'drop_table',
        argumentsSha256: canonicalArgumentsSha256({ table: 'orders' }),
        decidedBy: 'operator',
      });

      const second = new FunctionProvider()
        .add('drop_table', () => 'dropped', { sideEffect: 'destructive' }, { table: { type: 'string' } })
        .add('count_rows', () => 42, { sideEffect: 'read' });
      const resumed = await new LlmAgentRunner(finalAnswerAfterTools(first.calls), second).resume('run-approval', {
        store,
      });
      expect(resumed.stopReason).toBe('end_turn');
      expect(resumed.text).toBe('all done');
      expect(second.calls.map((c) => c.toolName)).toEqual(['drop_table']);
      const done = (await store.loadRun('run-approval'))!;
      expect(done.status).toBe('completed');
      expect(done.messages.filter((m) => m.role === 'tool').map((m) => (m as any).content)).toEqual(['dropped', '42']);
      await store.close();
    });

    it('a denial reaches the model as approval_denied and the tool never runs', async () => {
      const store = new MemoryRunStore();
      const first = await suspendedRun(store);
      await store.decideApproval('run-approval', 'c_drop', {
        approved: false,
        toolName: 'drop_table',
        argumentsSha256: canonicalArgumentsSha256({ table: 'orders' }),
        reason: 'not during business hours',
      });
      const resumed = await first.runner.resume('run-approval', { store });
      const drop = resumed.toolCalls.find((c) => c.toolName === 'drop_table')!;
      expect(drop.outcome.error).toMatchObject({ code: 'approval_denied' });
      expect(drop.outcome.error!.message).toContain('not during business hours');
      expect(first.provider.calls.map((c) => c.toolName)).toEqual(['count_rows']);
    });

    it('refuses to resume a finished run', async () => {
      const store = new MemoryRunStore();
      const provider = new FunctionProvider().add('t', () => 'x');
      await new LlmAgentRunner(new ScriptedModelClient([{ text: 'hi' }]), provider).complete('x', {
        store,
        runId: 'finished',
      });
      await expect(
        new LlmAgentRunner(new ScriptedModelClient([]), provider).resume('finished', { store }),
      ).rejects.toMatchObject({ code: 'run_conflict' });
    });
  });

  it('a second worker cannot run a leased run', async () => {
    const store = new MemoryRunStore();
    await store.createRun({ runId: 'leased', messages: [{ role: 'user', content: 'x' }] });
    expect(await store.acquireLease('leased', 'other-worker', 60_000)).toBe(true);
    const provider = new FunctionProvider().add('t', () => 'x');
    await expect(
      new LlmAgentRunner(new ScriptedModelClient([{ text: 'hi' }]), provider).resume('leased', { store }),
    ).rejects.toMatchObject({ code: 'lease_held' });
  });
});
