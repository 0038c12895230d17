import { join } from 'node:path';
import { LlmAgentRunner, ScriptedModelClient } from '../../../lib';
import { SqliteRunStore } from '../../../lib/durable/sqlite';
import { guardrail, guardrailNoticeOf } from '../../../lib/runner';
import { makeTempDir } from '../../durable/temp-dir';
import { FunctionProvider } from '../support';

const temp = makeTempDir('guardrails-durable');
afterAll(() => temp.cleanup());

const destructive = (): FunctionProvider =>
  new FunctionProvider().add('drop_table', () => 'dropped', { sideEffect: 'write' }, { table: { type: 'string' } });
const drop = (table: string, id = `d_${table}`) => ({ id, name: 'drop_table', arguments: { table } });

describe('a tripwire in the durable record (SQLite file)', () => {
  it('is stored with the run (status cancelled, the notice last) and a resume runs nothing more', async () => {
    const path = join(temp.path, 'tripped.db');
    const provider = destructive();
    const store = new SqliteRunStore(path);
    const tripped = await new LlmAgentRunner(
      new ScriptedModelClient([{ toolCalls: [drop('users')] }, { text: 'never asked' }]),
      provider,
    ).complete('Clean up', {
      store,
      runId: 'trip',
      toolGuardrails: { drop_table: { before: () => guardrail.tripwire('no drops in production') } },
    });
    expect(tripped.stopReason).toBe('guardrail_tripped');
    await store.close();

    const reopened = new SqliteRunStore(path);
    const record = await reopened.loadRun('trip');
    expect(record?.status).toBe('cancelled');
    expect(guardrailNoticeOf(record!)).toEqual({
      code: 'guardrail_tripped',
      text: "[guardrail_tripped] tool before guardrail 'tool_before#0' on 'drop_table': no drops in production",
    });
    const toolMessage = record?.messages.find((message) => message.role === 'tool');
    expect(toolMessage).toMatchObject({
      isError: true,
      content: expect.stringContaining('"code":"guardrail_tripped"'),
    });
    // The call was refused before it began: nothing of it is in the store's calls.
    expect(record?.toolCalls).toHaveLength(0);

    const later = new ScriptedModelClient([{ toolCalls: [drop('orders')] }]);
    await expect(new LlmAgentRunner(later, provider).resume('trip', { store: reopened })).rejects.toMatchObject({
      code: 'run_conflict',
    });
    expect(later.requests).toHaveLength(0);
    expect(provider.calls).toHaveLength(0);
    await reopened.close();
  });

  it('a crash after the decision but before the status: the resume stops at the recorded notice', async () => {
    const path = join(temp.path, 'crash-window.db');
    const provider = destructive();
    const store = new SqliteRunStore(path);
    await new LlmAgentRunner(new ScriptedModelClient([{ toolCalls: [drop('users')] }]), provider).complete('Go', {
      store,
      runId: 'window',
      toolGuardrails: { drop_table: { after: () => guardrail.tripwire('leak') } },
    });
    expect(provider.calls).toHaveLength(1);
    // As if the process died before it stored the final status.
    await store.setStatus('window', 'running');
    const later = new ScriptedModelClient([{ toolCalls: [drop('orders')] }]);
    const resumed = await new LlmAgentRunner(later, provider).resume('window', { store });
    expect(resumed.stopReason).toBe('guardrail_tripped');
    expect(later.requests).toHaveLength(0);
    expect(provider.calls).toHaveLength(1);
    expect((await store.loadRun('window'))?.status).toBe('cancelled');
    await store.close();
  });
});

describe('contract maxCalls', () => {
  it('the (maxCalls+1)th call of a tool in one run is refused max_calls_reached; the run goes on', async () => {
    const provider = new FunctionProvider()
      .add('send_email', () => 'sent', { maxCalls: 2 }, { to: { type: 'string' } })
      .add('lookup', () => 'found', {}, {});
    const email = (to: string) => ({ id: `e_${to}`, name: 'send_email', arguments: { to } });
    const model = new ScriptedModelClient([
      { toolCalls: [email('a'), email('b'), email('c'), { name: 'lookup', arguments: {} }] },
      { text: 'Done.' },
    ]);
    const result = await new LlmAgentRunner(model, provider).complete('Mail everyone');
    expect(result.stopReason).toBe('end_turn');
    expect(provider.calls.filter((call) => call.toolName === 'send_email')).toHaveLength(2);
    expect(result.toolCalls.map((call) => (call.outcome.ok ? 'ok' : call.outcome.error.code))).toEqual([
      'ok',
      'ok',
      'max_calls_reached',
      'ok',
    ]);
  });

  it('is not exceeded across a resume: the calls of the record count, each once', async () => {
    const path = join(temp.path, 'max-calls.db');
    const provider = new FunctionProvider().add(
      'charge',
      () => 'charged',
      { maxCalls: 2 },
      { cents: { type: 'number' } },
    );
    const charge = (cents: number) => ({ id: `c_${cents}`, name: 'charge', arguments: { cents } });
    const first = new SqliteRunStore(path);
    const stopped = await new LlmAgentRunner(
      new ScriptedModelClient([{ toolCalls: [charge(100)] }]),
      provider,
    ).complete('Charge', { store: first, runId: 'm', maxSteps: 1 });
    expect(stopped.stopReason).toBe('max_steps');
    await first.close();

    const second = new SqliteRunStore(path);
    const model = new ScriptedModelClient([{ toolCalls: [charge(200), charge(300)] }, { text: 'Done.' }]);
    const resumed = await new LlmAgentRunner(model, provider).resume('m', { store: second, maxSteps: 4 });
    expect(resumed.stopReason).toBe('end_turn');
    expect(provider.calls.map((call) => call.arguments.cents)).toEqual([100, 200]);
    expect(resumed.toolCalls.map((call) => (call.outcome.ok ? 'ok' : call.outcome.error.code))).toEqual([
      'ok',
      'max_calls_reached',
    ]);
    const record = await second.loadRun('m');
    expect(record?.toolCalls.map((call) => call.arguments)).toEqual([{ cents: 100 }, { cents: 200 }]);
    await second.close();
  });

  it('a maxCalls that is not an integer >= 1 is refused when the tool is defined', () => {
    expect(() => new FunctionProvider().add('x', () => 'ok', { maxCalls: 0 })).toThrow(
      /maxCalls must be an integer >= 1/,
    );
  });
});
