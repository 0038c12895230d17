import Anthropic from '@anthropic-ai/sdk';
import { join } from 'node:path';
import { LlmAgentEvent, LlmAgentRunner, ScriptedModelClient } from '../../../lib';
import { SqliteRunStore } from '../../../lib/durable/sqlite';
import { AnthropicModelClient } from '../../../lib/model/anthropic';
import { makeTempDir } from '../../durable/temp-dir';
import { messageReply } from '../../support/messages-api-server';
import { useLocalModelServers } from '../../support/local-model-servers';
import { FunctionProvider } from '../support';

const temp = makeTempDir('run-budgets');
const servers = useLocalModelServers();
afterAll(() => temp.cleanup());

const weather = (): FunctionProvider =>
  new FunctionProvider({}, { ok: true }).add('get_weather', () => 'sunny', {}, { city: { type: 'string' } });
const calls = (...cities: string[]) => ({
  toolCalls: cities.map((city) => ({ name: 'get_weather', arguments: { city } })),
  usage: { inputTokens: 10, outputTokens: 5 },
});

describe('budget.maxToolCalls', () => {
  it('trips mid-turn with parallel calls: the calls over the limit get budget_exhausted and never run', async () => {
    const provider = weather();
    const events: LlmAgentEvent[] = [];
    const model = new ScriptedModelClient([calls('Oslo', 'Rome', 'Lima'), { text: 'never asked' }]);
    const result = await new LlmAgentRunner(model, provider).complete('Weather?', {
      budget: { maxToolCalls: 2 },
      onEvent: (event) => events.push(event),
    });
    expect(result.stopReason).toBe('budget_exhausted');
    expect(provider.calls.map((call) => call.arguments.city).sort()).toEqual(['Oslo', 'Rome']);
    const refused = result.toolCalls.filter((call) => !call.outcome.ok);
    expect(refused.map((call) => [call.arguments?.city, call.outcome.ok ? '' : call.outcome.error.code])).toEqual([
      ['Lima', 'budget_exhausted'],
    ]);
    // The transcript stays valid: every call of the turn has its Tool message.
    expect(result.messages.filter((message) => message.role === 'tool')).toHaveLength(3);
    expect(model.requests).toHaveLength(1);
    expect(result.budget).toMatchObject({
      exhausted: { limit: 'maxToolCalls', max: 2, at: 'tool_call' },
      spent: { toolCalls: 2, modelRequests: 1 },
      remaining: { maxToolCalls: 0 },
    });
    expect(events.filter((event) => event.type === 'budget_exhausted')).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: 'run_finished', budgetRemaining: { maxToolCalls: 0 } });
  });
});

describe('budget token limits', () => {
  it('caps each request to the output tokens left and sends no request once they are spent', async () => {
    const model = new ScriptedModelClient([
      { ...calls('Oslo'), usage: { inputTokens: 10, outputTokens: 60 } },
      { ...calls('Rome'), usage: { inputTokens: 10, outputTokens: 40 } },
      { text: 'never asked' },
    ]);
    const result = await new LlmAgentRunner(model, weather()).complete('Weather?', {
      budget: { maxOutputTokens: 100 },
    });
    expect(model.requests.map((request) => request.maxOutputTokens)).toEqual([100, 40]);
    expect(result.stopReason).toBe('budget_exhausted');
    expect(result.budget).toMatchObject({
      exhausted: { limit: 'maxOutputTokens', at: 'model_request' },
      spent: { outputTokens: 100, modelRequests: 2 },
    });
  });

  it('reaches the wire: Anthropic max_tokens is the smaller of the client limit and the budget left', async () => {
    servers.anthropic.enqueue(
      messageReply({
        content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Oslo' } }],
        stop_reason: 'tool_use',
        usage: { input_tokens: 20, output_tokens: 250 },
      }),
      messageReply({ content: [{ type: 'text', text: 'Sunny.' }], usage: { input_tokens: 30, output_tokens: 10 } }),
    );
    const model = new AnthropicModelClient({
      client: new Anthropic({ apiKey: 'test-key', baseURL: servers.anthropic.baseURL, maxRetries: 0 }),
      maxTokens: 1000,
    });
    const result = await new LlmAgentRunner(model, weather()).complete('Weather?', {
      budget: { maxOutputTokens: 300 },
    });
    const sent = servers.anthropic.requests.slice(-2).map((request) => request.body.max_tokens);
    expect(sent).toEqual([300, 50]);
    expect(result.text).toBe('Sunny.');
    expect(result.budget?.spent.outputTokens).toBe(260);
  });

  it('maxInputTokens refuses a request whose estimated input would cross it', async () => {
    const model = new ScriptedModelClient([{ text: 'never' }]);
    const result = await new LlmAgentRunner(model, weather()).complete('x'.repeat(4000), {
      budget: { maxInputTokens: 50 },
    });
    expect(result.stopReason).toBe('budget_exhausted');
    expect(result.budget?.exhausted?.limit).toBe('maxInputTokens');
    expect(model.requests).toHaveLength(0);
  });
});

describe('budget.maxCostUsd', () => {
  it('a model without a price is invalid_run_options before any request', async () => {
    const model = new ScriptedModelClient([{ text: 'never' }], { modelName: 'unpriced' });
    await expect(
      new LlmAgentRunner(model, weather()).complete('Hi', {
        budget: { maxCostUsd: 1 },
        modelPrices: { other: { inputUsdPerMillionTokens: 1, outputUsdPerMillionTokens: 1 } },
      }),
    ).rejects.toMatchObject({ code: 'invalid_run_options', message: expect.stringContaining("model 'unpriced'") });
    await expect(
      new LlmAgentRunner(model, weather()).complete('Hi', {
        budget: { maxCostUsd: 1 },
        modelPrices: JSON.parse('{"__proto__": {"inputUsdPerMillionTokens": 1, "outputUsdPerMillionTokens": 1}}'),
      }),
    ).rejects.toMatchObject({ code: 'invalid_run_options' });
    expect(model.requests).toHaveLength(0);
  });

  it('counts cost from the host price table and caps the output to what the money left buys', async () => {
    const model = new ScriptedModelClient(
      [{ ...calls('Oslo'), usage: { inputTokens: 1_000, outputTokens: 1_000 } }, { text: 'done' }],
      { modelName: 'm' },
    );
    const result = await new LlmAgentRunner(model, weather()).complete('Hi', {
      // $1 per million input, $10 per million output: the first step costs $0.011.
      budget: { maxCostUsd: 0.02 },
      modelPrices: { m: { inputUsdPerMillionTokens: 1, outputUsdPerMillionTokens: 10 } },
    });
    expect(result.budget?.spent.costUsd).toBeCloseTo(0.011, 10);
    const [first, second] = model.requests.map((request) => request.maxOutputTokens ?? 0);
    expect(first).toBeLessThanOrEqual(2_000);
    expect(second).toBeLessThan(900);
    expect(second).toBeGreaterThan(800);
  });

  it.each([{ maxToolCalls: -1 }, { maxOutputTokens: 1.5 }, { maxWallMs: Number.NaN }])(
    'a malformed budget %j is invalid_run_options',
    async (budget) => {
      const model = new ScriptedModelClient([{ text: 'never' }]);
      await expect(new LlmAgentRunner(model, weather()).complete('Hi', { budget })).rejects.toMatchObject({
        code: 'invalid_run_options',
      });
    },
  );
});

describe('budget across a crash and resume (SQLite file)', () => {
  it('the resumed run continues the budget from the record, counting each call and response once', async () => {
    const path = join(temp.path, 'resume.db');
    const provider = weather();
    const budget = { maxToolCalls: 2, maxOutputTokens: 1_000 };
    const first = new SqliteRunStore(path);
    const stopped = await new LlmAgentRunner(new ScriptedModelClient([calls('Oslo')]), provider).complete('Weather?', {
      store: first,
      runId: 'r',
      maxSteps: 1,
      budget,
    });
    expect(stopped.stopReason).toBe('max_steps');
    await first.close();

    const second = new SqliteRunStore(path);
    const model = new ScriptedModelClient([calls('Rome', 'Lima')]);
    const resumed = await new LlmAgentRunner(model, provider).resume('r', { store: second, maxSteps: 4, budget });
    expect(resumed.stopReason).toBe('budget_exhausted');
    expect(provider.calls.map((call) => call.arguments.city).sort()).toEqual(['Oslo', 'Rome']);
    expect(resumed.budget?.spent).toMatchObject({ toolCalls: 2, modelRequests: 2, outputTokens: 10, inputTokens: 20 });
    expect(model.requests[0].maxOutputTokens).toBe(995);
    const record = await second.loadRun('r');
    expect(record?.status).toBe('stopped');
    const lima = record?.toolCalls.find(
      (call) => call.arguments && (call.arguments as { city?: string }).city === 'Lima',
    );
    expect(lima).toBeUndefined();
    // Resumed again with a larger budget, the run goes on from where the budget stopped it.
    const third = new LlmAgentRunner(new ScriptedModelClient([{ text: 'Done.' }]), provider);
    const done = await third.resume('r', { store: second, maxSteps: 4, budget: { ...budget, maxToolCalls: 3 } });
    expect(done.stopReason).toBe('end_turn');
    expect(done.budget?.spent).toMatchObject({ toolCalls: 2, modelRequests: 3 });
    await second.close();
  });
});
