import 'reflect-metadata';
import { join } from 'node:path';
import { existsSync, readFileSync } from 'node:fs';
import {
  LlmAgentEvent,
  LlmAgentRunner,
  MemoryRunStore,
  ModelRequest,
  ScriptedModelClient,
  standardFailure,
  ToolCallRequest,
} from '../../lib';
import type { Gate, RunInProgress } from '../../lib/runner';
import { InMemoryMemory } from '../../lib/model';
import { verifyRunRecord } from '../../lib/durable';
import { SqliteRunStore } from '../../lib/durable/sqlite';
import { handoff, HandoffError, handoffsOf } from '../../lib/agents';
import { makeTempDir } from '../durable/temp-dir';
import { approveAll } from './agent-tree';
import { agentModel, countingTool, handoffChain } from './handoff-agents';

const temps: { cleanup: () => void }[] = [];
afterAll(() => temps.forEach((temp) => temp.cleanup()));

function tempDir(): string {
  const temp = makeTempDir('handoff');
  temps.push(temp);
  return temp.path;
}

function count(dir: string, tool: string): number {
  const path = join(dir, `${tool}.count`);
  return existsSync(path) ? readFileSync(path, 'utf8').trim().split('\n').length : 0;
}

const toolNames = (request: ModelRequest): string[] => request.tools.map((tool) => tool.name);

describe('handoffs', () => {
  it('a transfer continues the same run with the target: its system prompt, its tools, its model', async () => {
    const dir = tempDir();
    const store = new MemoryRunStore();
    const events: LlmAgentEvent[] = [];
    const { triage, models } = handoffChain(
      dir,
      { store, onEvent: (event) => events.push(event) },
      {
        refundApproval: 'never',
      },
    );
    const result = await triage.complete('I was charged twice', { runId: 'chain-1' });

    expect(result).toMatchObject({ runId: 'chain-1', stopReason: 'end_turn', text: 'refunds done' });
    expect([count(dir, 'lookup'), count(dir, 'charge'), count(dir, 'refund')]).toEqual([1, 1, 1]);
    // Each agent's model got only its own requests, with its own tools and system prompt.
    expect(models.triage.requests.map(toolNames)).toEqual([
      ['lookup', 'transfer_to_billing'],
      ['lookup', 'transfer_to_billing'],
    ]);
    expect(models.billing.requests.map(toolNames)).toEqual([
      ['charge', 'transfer_to_refunds'],
      ['charge', 'transfer_to_refunds'],
    ]);
    expect(models.refunds.requests.map(toolNames)).toEqual([['refund'], ['refund']]);
    expect(models.billing.requests.map((request) => request.system)).toEqual([
      'You handle billing.',
      'You handle billing.',
    ]);
    expect(models.refunds.requests[0].system).toBe('You issue refunds.');
    // The transcript is kept whole: the target sees everything, the transfer answered by a Tool message.
    expect(models.billing.requests[0].messages).toEqual(result.messages.slice(0, 5));
    expect(result.messages[4]).toMatchObject({
      role: 'tool',
      toolName: 'transfer_to_billing',
      content: 'Transferred to billing',
      isError: false,
    });
    expect(events.filter((event) => event.type === 'handoff')).toEqual([
      { type: 'handoff', runId: 'chain-1', turn: 2, callId: 'call_transfer_to_billing', from: 'triage', to: 'billing' },
      {
        type: 'handoff',
        runId: 'chain-1',
        turn: 4,
        callId: 'call_transfer_to_refunds',
        from: 'billing',
        to: 'refunds',
      },
    ]);
    // One run, one record, its handoffs in its hash chain.
    expect((await store.listRuns()).map((run) => run.runId)).toEqual(['chain-1']);
    const record = await store.loadRun('chain-1');
    expect(handoffsOf(record!)).toEqual([
      { turn: 2, callId: 'call_transfer_to_billing', from: 'triage', to: 'billing' },
      { turn: 4, callId: 'call_transfer_to_refunds', from: 'billing', to: 'refunds' },
    ]);
    expect(record!.toolCalls.find((call) => call.toolName === 'transfer_to_billing')?.outcome).toEqual({
      ok: true,
      text: 'Transferred to billing',
      metadata: { handoff: { from: 'triage', to: 'billing' } },
    });
  });

  it("stream() streams the whole chain, the targets' model steps included", async () => {
    const dir = tempDir();
    const { triage, models } = handoffChain(dir, {}, { refundApproval: 'never' });
    const stream = triage.stream('hi');
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    const result = await stream.result;
    expect(result.text).toBe('refunds done');
    expect(models.refunds.requests).toHaveLength(2);
    expect(types.filter((type) => type === 'step_finished')).toHaveLength(6);
    expect(types.at(-1)).toBe('run_finished');
  });

  it("the target's own steps run: its overrides are honoured, and its memory forgets the run after it", async () => {
    const dir = tempDir();
    const seen: string[] = [];
    class GuardedRunner extends LlmAgentRunner {
      protected override authorize(run: RunInProgress, request: ToolCallRequest): Gate<void> {
        seen.push(request.toolName);
        return { kind: 'refuse', outcome: standardFailure('permission_denied', 'billing is closed') };
      }
      remembered(runId: string): number {
        return (this.defaultMemory as InMemoryMemory).messages(runId).length;
      }
    }
    const billing = new GuardedRunner(
      agentModel('billing', 'charge'),
      countingTool(dir, 'charge', { sideEffect: 'write' }),
      { name: 'billing' },
    );
    const triage = new LlmAgentRunner(
      agentModel('triage', 'lookup', 'transfer_to_billing'),
      countingTool(dir, 'lookup', {}),
      {
        name: 'triage',
        handoffs: [billing],
      },
    );
    const result = await triage.complete('hi', { runId: 'guarded-1' });
    expect(result.text).toBe('billing done');
    expect(seen).toEqual(['charge']);
    expect(count(dir, 'charge')).toBe(0);
    expect(billing.remembered('guarded-1')).toBe(0);
  });

  it("after the handoff a call of the source's tool is not run (unknown_tool)", async () => {
    const dir = tempDir();
    const target = new LlmAgentRunner(
      new ScriptedModelClient([
        { toolCalls: [{ id: 'again', name: 'lookup', arguments: {} }] },
        { text: 'cannot look up' },
      ]),
      countingTool(dir, 'charge', { sideEffect: 'write' }),
      { name: 'billing' },
    );
    const source = new LlmAgentRunner(
      new ScriptedModelClient([{ toolCalls: [{ id: 't', name: 'transfer_to_billing', arguments: {} }] }]),
      countingTool(dir, 'lookup', { sideEffect: 'read' }),
      { name: 'triage', handoffs: [target] },
    );
    const result = await source.complete('hi');
    expect(result.text).toBe('cannot look up');
    expect(result.toolCalls.map((call) => [call.toolName, call.outcome.ok ? 'ok' : call.outcome.error.code])).toEqual([
      ['transfer_to_billing', 'ok'],
      ['lookup', 'unknown_tool'],
    ]);
    expect(count(dir, 'lookup')).toBe(0);
  });

  it('two transfers in one turn: the first hands the run over, the second is refused (handoff_refused)', async () => {
    const tools = { listTools: () => [], invokeTool: () => 'x' };
    const billingModel = new ScriptedModelClient([{ text: 'billing here' }]);
    const supportModel = new ScriptedModelClient([{ text: 'support here' }]);
    const billing = new LlmAgentRunner(billingModel, tools, { name: 'billing' });
    const support = new LlmAgentRunner(supportModel, tools, { name: 'support' });
    const triage = new LlmAgentRunner(
      new ScriptedModelClient([
        {
          toolCalls: [
            { id: 'one', name: 'transfer_to_billing', arguments: {} },
            { id: 'two', name: 'transfer_to_support', arguments: {} },
          ],
        },
      ]),
      tools,
      { name: 'triage', handoffs: [billing, support] },
    );
    const result = await triage.complete('hi');
    expect(result.text).toBe('billing here');
    expect(result.toolCalls.map((call) => [call.toolName, call.outcome.ok ? 'ok' : call.outcome.error.code])).toEqual([
      ['transfer_to_billing', 'ok'],
      ['transfer_to_support', 'handoff_refused'],
    ]);
    expect(supportModel.requests).toEqual([]);
  });

  it('inputFilter trims what the target sees; the transcript keeps everything', async () => {
    const dir = tempDir();
    const { triage, models } = handoffChain(
      dir,
      {},
      {
        refundApproval: 'never',
        // The first user message, then only what came after the transfer to refunds.
        toRefunds: {
          inputFilter: (messages) => {
            const at = messages.findLastIndex(
              (message) => message.role === 'tool' && message.toolName === 'transfer_to_refunds',
            );
            return [messages[0], ...messages.slice(at + 1)];
          },
        },
      },
    );
    const result = await triage.complete('I was charged twice');
    expect(models.refunds.requests[0].messages).toEqual([{ role: 'user', content: 'I was charged twice' }]);
    expect(models.refunds.requests[1].messages).toEqual([result.messages[0], ...result.messages.slice(9, 11)]);
    expect(models.billing.requests[0].messages.length).toBe(5); // billing has no filter: the whole conversation
    expect(result.messages.length).toBe(12);
    expect(result.text).toBe('refunds done');
  });

  it('an inputFilter that throws fails the run with HandoffError input_filter_failed; nothing is sent', async () => {
    const dir = tempDir();
    const { triage, models } = handoffChain(
      dir,
      {},
      {
        toRefunds: {
          inputFilter: () => {
            throw new Error('boom');
          },
        },
      },
    );
    const failed = await triage.complete('hi').catch((error: unknown) => error);
    expect(HandoffError.isInstance(failed)).toBe(true);
    expect(failed).toMatchObject({ code: 'input_filter_failed' });
    expect(models.refunds.requests).toEqual([]);
  });

  it("the per-run budget goes on across the handoff: the target's call is refused once it is spent", async () => {
    const dir = tempDir();
    const { triage } = handoffChain(dir, { budget: { maxToolCalls: 3 } }, { refundApproval: 'never' });
    const result = await triage.complete('hi');
    expect(result.stopReason).toBe('budget_exhausted');
    expect(result.toolCalls.map((call) => [call.toolName, call.outcome.ok ? 'ok' : call.outcome.error.code])).toEqual([
      ['lookup', 'ok'],
      ['transfer_to_billing', 'ok'],
      ['charge', 'ok'],
      ['transfer_to_refunds', 'budget_exhausted'],
    ]);
    expect(result.budget?.spent.toolCalls).toBe(3);
  });

  it("a target's destructive tool still needs approval: the run suspends, and a resume on the entry agent continues with the target", async () => {
    const dir = tempDir();
    const store = new SqliteRunStore(join(dir, 'runs.db'));
    try {
      const first = handoffChain(dir, { store });
      const suspended = await first.triage.complete('refund me', { runId: 'approve-1' });
      expect(suspended.stopReason).toBe('awaiting_approval');
      expect(count(dir, 'refund')).toBe(0);
      expect(await approveAll(store, ['approve-1'])).toEqual(['approve-1:refund']);

      // A fresh graph, as another process would build it.
      const second = handoffChain(dir, { store });
      const resumed = await second.triage.resume('approve-1');
      expect(resumed).toMatchObject({ stopReason: 'end_turn', text: 'refunds done' });
      expect([count(dir, 'lookup'), count(dir, 'charge'), count(dir, 'refund')]).toEqual([1, 1, 1]);
      expect(second.models.triage.requests).toEqual([]);
      expect(second.models.billing.requests).toEqual([]);
      expect(second.models.refunds.requests.map(toolNames)).toEqual([['refund']]);
    } finally {
      await store.close();
    }
  });

  it('a resume with a runner whose handoffs do not reach the holding agent is refused (handoff_not_found)', async () => {
    const dir = tempDir();
    const store = new MemoryRunStore();
    const { triage } = handoffChain(dir, { store });
    expect((await triage.complete('refund me', { runId: 'lost-1' })).stopReason).toBe('awaiting_approval');
    const stranger = new LlmAgentRunner(agentModel('other', 'lookup'), countingTool(dir, 'lookup', {}), {
      name: 'other',
      store,
    });
    await expect(stranger.resume('lost-1')).rejects.toMatchObject({ code: 'handoff_not_found' });
    expect(count(dir, 'refund')).toBe(0);
  });

  it('before any handoff the run is held by the runner it started on (metadata entryAgent): another runner is refused', async () => {
    const dir = tempDir();
    const store = new MemoryRunStore();
    const { triage, billing } = handoffChain(dir, { store }, { refundApproval: 'never' });
    expect((await triage.complete('hi', { runId: 'early-1', maxSteps: 1 })).stopReason).toBe('max_steps');
    expect((await store.loadRun('early-1'))?.metadata).toEqual({ entryAgent: 'triage' });
    await expect(billing.resume('early-1', { store })).rejects.toMatchObject({ code: 'handoff_not_found' });
    expect(count(dir, 'charge')).toBe(0);
    expect((await store.loadRun('early-1'))?.status).toBe('failed');
    const resumed = await triage.resume('early-1', { maxSteps: 16 });
    expect(resumed).toMatchObject({ stopReason: 'end_turn', text: 'refunds done' });
    expect([count(dir, 'lookup'), count(dir, 'charge'), count(dir, 'refund')]).toEqual([1, 1, 1]);
  });

  it('an agent tool made of a runner with handoffs derives its contract from the tools the handoffs reach too', () => {
    const { triage } = handoffChain(tempDir());
    const [tool] = triage.asTool({ name: 'support', description: 'Support.' }).listTools();
    expect([tool.sideEffect, tool.idempotency, tool.approval]).toEqual([
      'destructive',
      'non_idempotent',
      'when_destructive',
    ]);
  });

  it('a record whose handoff was edited is refused by its hash chain', async () => {
    const dir = tempDir();
    const store = new MemoryRunStore();
    await handoffChain(dir, { store }, { refundApproval: 'never' }).triage.complete('hi', { runId: 'chain-2' });
    const exported = await store.exportRun('chain-2');
    const edited = {
      ...exported!,
      toolCalls: exported!.toolCalls.map((call) =>
        call.toolName === 'transfer_to_billing'
          ? { ...call, outcomeJson: call.outcomeJson!.replace('"to":"billing"', '"to":"refunds"') }
          : call,
      ),
    };
    expect(verifyRunRecord(exported!).ok).toBe(true);
    expect(verifyRunRecord(edited).ok).toBe(false);
  });
});

describe('handoffs options', () => {
  const model = new ScriptedModelClient([]);
  const target = new LlmAgentRunner(model, { listTools: () => [], invokeTool: () => 'x' }, { name: 'billing' });
  const lookup = countingTool('/nonexistent', 'lookup', {});

  it.each([
    ['a runner with handoffs but no name', () => new LlmAgentRunner(model, lookup, { handoffs: [target] })],
    [
      'a target without a name',
      () =>
        new LlmAgentRunner(model, lookup, {
          name: 'triage',
          handoffs: [new LlmAgentRunner(model, lookup)],
        }),
    ],
    [
      'a name no tool name can carry',
      () => new LlmAgentRunner(model, lookup, { name: 'triage', handoffs: [handoff(target, { name: 'bill ing' })] }),
    ],
    [
      'two handoffs of one name',
      () =>
        new LlmAgentRunner(model, lookup, {
          name: 'triage',
          handoffs: [target, handoff(() => target, { name: 'billing' })],
        }),
    ],
    [
      'a transfer tool whose name the runner already has',
      () =>
        new LlmAgentRunner(model, countingTool('/nonexistent', 'transfer_to_billing', {}), {
          name: 'triage',
          handoffs: [target],
        }),
    ],
    [
      'a target that is not a runner',
      () => new LlmAgentRunner(model, lookup, { name: 'triage', handoffs: [{} as LlmAgentRunner] }),
    ],
    [
      'a lazy target without a name',
      () => new LlmAgentRunner(model, lookup, { name: 'triage', handoffs: [handoff(() => target)] }),
    ],
  ])('%s is refused when the runner is built (HandoffError invalid_handoff)', (_name, build) => {
    let thrown: unknown;
    try {
      build();
    } catch (error) {
      thrown = error;
    }
    expect(HandoffError.isInstance(thrown)).toBe(true);
    expect(thrown).toMatchObject({ code: 'invalid_handoff' });
  });

  it('a lazy target (a function) makes a cycle possible: billing hands back to triage', async () => {
    const tools = { listTools: () => [], invokeTool: () => 'x' };
    // eslint-disable-next-line prefer-const
    let triage: LlmAgentRunner;
    const billing = new LlmAgentRunner(
      new ScriptedModelClient([{ toolCalls: [{ id: 'back', name: 'transfer_to_triage', arguments: {} }] }]),
      tools,
      { name: 'billing', handoffs: [handoff(() => triage, { name: 'triage' })] },
    );
    triage = new LlmAgentRunner(
      new ScriptedModelClient([
        { toolCalls: [{ id: 'go', name: 'transfer_to_billing', arguments: {} }] },
        { text: 'back at triage' },
      ]),
      tools,
      { name: 'triage', handoffs: [billing] },
    );
    const events: LlmAgentEvent[] = [];
    const result = await triage.complete('hi', { onEvent: (event) => events.push(event) });
    expect(result.text).toBe('back at triage');
    expect(events.flatMap((event) => (event.type === 'handoff' ? [`${event.from}->${event.to}`] : []))).toEqual([
      'triage->billing',
      'billing->triage',
    ]);
  });
});
