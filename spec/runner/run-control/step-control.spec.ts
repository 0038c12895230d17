import { join } from 'node:path';
import { LlmAgentRunner, ScriptedModelClient } from '../../../lib';
import { SqliteRunStore } from '../../../lib/durable/sqlite';
import { hasToolCall, stepCountIs } from '../../../lib/runner';
import { makeTempDir } from '../../durable/temp-dir';
import { FunctionProvider } from '../support';

const temp = makeTempDir('step-control');
const approve = () => ({ approved: true, decidedBy: 'test' });
afterAll(() => temp.cleanup());

const tools = (): FunctionProvider =>
  new FunctionProvider()
    .add('get_weather', () => 'sunny', {}, { city: { type: 'string' } })
    .add('delete_file', () => 'deleted', { sideEffect: 'destructive' }, { path: { type: 'string' } });

describe('activeTools: a call of a tool not active in its step', () => {
  it('is refused tool_not_active and never dispatched, while the active tool runs', async () => {
    const provider = tools();
    const model = new ScriptedModelClient([
      {
        toolCalls: [
          { name: 'delete_file', arguments: { path: '/etc/passwd' } },
          { name: 'get_weather', arguments: { city: 'Oslo' } },
        ],
      },
      { text: 'ok' },
    ]);
    const result = await new LlmAgentRunner(model, provider).complete('Go', { activeTools: ['get_weather'] });
    expect(provider.calls.map((call) => call.toolName)).toEqual(['get_weather']);
    const deleted = result.toolCalls.find((call) => call.toolName === 'delete_file');
    expect(deleted?.outcome).toMatchObject({ ok: false, error: { code: 'tool_not_active' } });
    expect(model.requests[0].tools.map((tool) => tool.name)).toEqual(['get_weather']);
  });

  it('follows prepareStep: a tool active in step 1 is refused when step 2 narrowed the tools', async () => {
    const provider = tools();
    const model = new ScriptedModelClient([
      { toolCalls: [{ name: 'delete_file', arguments: { path: 'a' } }] },
      { toolCalls: [{ name: 'delete_file', arguments: { path: 'b' } }] },
      { text: 'ok' },
    ]);
    const result = await new LlmAgentRunner(model, provider).complete('Go', {
      approvalHandler: approve,
      prepareStep: ({ step }) => (step >= 2 ? { activeTools: ['get_weather'] } : undefined),
    });
    expect(provider.calls.map((call) => call.arguments.path)).toEqual(['a']);
    expect(result.toolCalls.map((call) => (call.outcome.ok ? 'ok' : call.outcome.error.code))).toEqual([
      'ok',
      'tool_not_active',
    ]);
  });

  it('a prepareStep answer naming an unknown tool fails the run before that request', async () => {
    const model = new ScriptedModelClient([{ text: 'never' }]);
    await expect(
      new LlmAgentRunner(model, tools()).complete('Go', { prepareStep: () => ({ activeTools: ['rm_rf'] }) }),
    ).rejects.toMatchObject({ code: 'invalid_run_options' });
    expect(model.requests).toHaveLength(0);
  });

  it('prepareStep messages and system change the request only, not the record', async () => {
    const model = new ScriptedModelClient([{ text: 'ok' }]);
    const result = await new LlmAgentRunner(model, tools()).complete('Go', {
      system: 'base',
      prepareStep: ({ messages }) => ({
        system: 'override',
        messages: [...messages, { role: 'user', content: 'extra' }],
      }),
    });
    expect(model.requests[0].system).toBe('override');
    expect(model.requests[0].messages).toHaveLength(2);
    expect(result.messages).toHaveLength(2);
  });
});

describe('stopWhen', () => {
  const twoSteps = (): ScriptedModelClient =>
    new ScriptedModelClient([
      { toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] },
      { toolCalls: [{ name: 'delete_file', arguments: { path: 'x' } }] },
      { text: 'done' },
    ]);

  it('hasToolCall stops after the step that called the tool', async () => {
    const model = twoSteps();
    const result = await new LlmAgentRunner(model, tools()).complete('Go', { stopWhen: hasToolCall('delete_file') });
    expect(result.stopReason).toBe('stop_condition');
    expect(result.steps).toBe(2);
  });

  it('stepCountIs stops a durable run as stopped; resume goes on', async () => {
    const store = new SqliteRunStore(join(temp.path, 'stop.db'));
    const model = twoSteps();
    const runner = new LlmAgentRunner(model, tools());
    const stopped = await runner.complete('Go', {
      store,
      runId: 's',
      approvalHandler: approve,
      stopWhen: [stepCountIs(1)],
    });
    expect(stopped.stopReason).toBe('stop_condition');
    expect((await store.loadRun('s'))?.status).toBe('stopped');
    const resumed = await runner.resume('s', { store, approvalHandler: approve, stopWhen: [stepCountIs(3)] });
    expect(resumed.stopReason).toBe('end_turn');
    expect(resumed.text).toBe('done');
    expect((await store.loadRun('s'))?.status).toBe('completed');
    await store.close();
  });

  it('a stopWhen that is not a function is invalid_run_options', async () => {
    const model = new ScriptedModelClient([{ text: 'never' }]);
    await expect(
      new LlmAgentRunner(model, tools()).complete('Go', { stopWhen: ['soon'] as never }),
    ).rejects.toMatchObject({ code: 'invalid_run_options' });
  });
});
