import { createRecordedRun } from '../durable/recorded-run';
import { canonicalArgumentsSha256 } from '../../lib/durable';
import { ChatMessage, LlmAgentRunner, MemoryRunStore, ScriptedModelClient } from '../../lib';
import { deriveIdempotencyKey } from '../../lib/runner';
import { sha256Hex } from '../../lib/durable/canonical-arguments';
import { FunctionProvider } from './support';

const calls = [
  { id: 'c_drop', name: 'drop_table', arguments: '{}' },
  { id: 'c_count', name: 'count_rows', arguments: '{}' },
];
const turn = (messages: readonly ChatMessage[]) =>
  messages.some((m) => m.role === 'tool') ? { text: 'all done' } : { toolCalls: calls };

function tools() {
  return new FunctionProvider()
    .add('drop_table', () => 'dropped', { sideEffect: 'destructive' })
    .add('count_rows', () => 'x'.repeat(5000), { sideEffect: 'read' });
}

describe('a turn suspended for approval, with a concurrent call that completed', () => {
  it('audits the projection of the completed call only when its Tool message is sent, so a resume under a tighter policy completes', async () => {
    const store = new MemoryRunStore();
    const first = await new LlmAgentRunner(new ScriptedModelClient([turn]), tools()).complete('clean up', {
      store,
      runId: 'r',
    });
    expect(first.stopReason).toBe('awaiting_approval');
    const suspended = (await store.loadRun('r'))!;
    expect(suspended.toolCalls.find((call) => call.callId === 'c_count')!.status).toBe('admitted');
    // The model has not seen any Tool message of this turn, so nothing is audited as sent yet.
    expect(suspended.toolOutputProjections).toEqual([]);

    await store.decideApproval('r', 'c_drop', {
      approved: true,
      toolName: 'drop_table',
      argumentsSha256: canonicalArgumentsSha256({}),
    });
    const model = new ScriptedModelClient([turn]);
    const resumed = await new LlmAgentRunner(model, tools()).resume('r', {
      store,
      toolOutputProjection: { maxBytes: 1024, maxTokens: 1000 },
    });
    expect(resumed.stopReason).toBe('end_turn');
    const sent = model.requests[0].messages.filter((m) => m.role === 'tool') as {
      toolCallId: string;
      content: string;
    }[];
    expect(sent.map((m) => m.toolCallId)).toEqual(['c_drop', 'c_count']);
    expect(Buffer.byteLength(sent[1].content)).toBeLessThanOrEqual(1024);
    const done = (await store.loadRun('r'))!;
    expect(done.status).toBe('completed');
    const audit = done.toolOutputProjections.find((projection) => projection.callId === 'c_count')!;
    expect(audit.projectedSha256).toBe(sha256Hex(sent[1].content));
    expect(audit.report.truncated).toBe(true);
  });
});

describe('resume of a run whose last assistant turn is half answered', () => {
  async function halfAnswered(idempotency: 'idempotent' | 'non_idempotent') {
    const store = new MemoryRunStore();
    const runId = `half-${idempotency}`;
    const toolCalls = [
      { id: 'a', name: 'read', arguments: {} },
      { id: 'b', name: 'write', arguments: {} },
    ];
    await createRecordedRun(store, {
      runId,
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: '', toolCalls },
        { role: 'tool', toolCallId: 'a', toolName: 'read', content: 'read it', isError: false },
      ],
    });
    for (const call of toolCalls)
      await store.recordCallStarted(runId, {
        callId: call.id,
        toolName: call.name,
        idempotencyKey: deriveIdempotencyKey(runId, 1, call.id),
        attempts: 1,
        argumentsSha256: canonicalArgumentsSha256({}),
        arguments: {},
      });
    await store.admitOutcome(runId, 'a', { ok: true, text: 'read it' }, 1);
    const provider = new FunctionProvider()
      .add('read', () => 'read again')
      .add('write', () => 'written', { idempotency });
    const model = new ScriptedModelClient([{ text: 'finished' }]);
    const result = await new LlmAgentRunner(model, provider).resume(runId, { store });
    return { store, runId, provider, model, result };
  }

  it('answers only the open call, after the answered one: a non-idempotent one is outcome_unknown and never re-run', async () => {
    const { store, runId, provider, model, result } = await halfAnswered('non_idempotent');
    expect(provider.calls).toHaveLength(0);
    expect(result.stopReason).toBe('end_turn');
    const sent = model.requests[0].messages.filter((m) => m.role === 'tool') as {
      toolCallId: string;
      content: string;
    }[];
    expect(sent.map((m) => m.toolCallId)).toEqual(['a', 'b']);
    expect(JSON.parse(sent[1].content).error.code).toBe('outcome_unknown');
    const record = (await store.loadRun(runId))!;
    expect(record.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant']);
    expect(record.status).toBe('completed');
  });

  it('re-executes an idempotent open call once, with its original call id and idempotency key', async () => {
    const { provider, result } = await halfAnswered('idempotent');
    expect(provider.calls.map((call) => call.callId)).toEqual(['b']);
    expect(result.toolCalls.map((call) => [call.callId, call.content])).toEqual([['b', 'written']]);
    expect(result.toolCalls[0].idempotencyKey).toBe(deriveIdempotencyKey('half-idempotent', 1, 'b'));
  });
});

describe('resume of a run that failed on an error', () => {
  it('a model outage after a tool ran leaves a failed run that resumes without running the tool again', async () => {
    const store = new MemoryRunStore();
    const provider = new FunctionProvider().add('charge', () => 'charged');
    const failing = new ScriptedModelClient([{ toolCalls: [{ id: 'c', name: 'charge' }] }]);
    await expect(
      new LlmAgentRunner(failing, provider).complete('pay', { store, runId: 'outage' }),
    ).rejects.toMatchObject({ code: 'script_exhausted' });
    expect((await store.loadRun('outage'))!.status).toBe('failed');
    const model = new ScriptedModelClient([{ text: 'paid' }]);
    const result = await new LlmAgentRunner(model, provider).resume('outage', { store });
    expect(result.stopReason).toBe('end_turn');
    expect(result.text).toBe('paid');
    expect(provider.calls).toHaveLength(1);
    expect((await store.loadRun('outage'))!.status).toBe('completed');
  });
});

describe('invokeToolCall with a store (a host with its own loop)', () => {
  it('admits the outcome and audits the projection it returns, on a run the host created', async () => {
    const store = new MemoryRunStore();
    await store.createRun({ runId: 'host-loop' });
    const provider = new FunctionProvider().add('t', () => 'result');
    const record = await new LlmAgentRunner(new ScriptedModelClient([]), provider).invokeToolCall(
      { id: 'c', name: 't', arguments: {} },
      { store, runId: 'host-loop' },
    );
    expect(record.admitted).toBe(true);
    const stored = (await store.loadRun('host-loop'))!;
    expect(stored.toolCalls).toEqual([expect.objectContaining({ callId: 'c', status: 'admitted' })]);
    expect(stored.toolOutputProjections).toEqual([
      expect.objectContaining({ callId: 'c', projectedSha256: sha256Hex(record.content) }),
    ]);
  });
});
