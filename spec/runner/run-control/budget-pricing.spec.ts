import Anthropic from '@anthropic-ai/sdk';
import { LlmAgentRunner, MemoryRunStore, ScriptedModelClient } from '../../../lib';
import { AnthropicModelClient } from '../../../lib/model/anthropic';
import { TELEMETRY_NAMES } from '../../../lib/telemetry';
import { useLocalModelServers } from '../../support/local-model-servers';
import { messageReply } from '../../support/messages-api-server';
import { telemetryHarness } from '../../telemetry/support';
import { usageOf } from '../../../lib/model/ai-sdk/map-response';
import { mapUsage } from '../../../lib/model/openai/json-shape';
import { pingProvider } from './key-budget-worker';

const servers = useLocalModelServers();

describe('modelPrices cachedInputUsdPerMillionTokens', () => {
  const prices = {
    'claude-test': { inputUsdPerMillionTokens: 3, outputUsdPerMillionTokens: 15, cachedInputUsdPerMillionTokens: 0.3 },
  };

  it('prices cached input tokens at the cached price, read from the API usage', async () => {
    servers.anthropic.enqueue(
      messageReply({
        content: [{ type: 'text', text: 'Hi.' }],
        usage: { input_tokens: 100_000, cache_read_input_tokens: 800_000, output_tokens: 10_000 },
      }),
    );
    const model = new AnthropicModelClient({
      client: new Anthropic({ apiKey: 'test-key', baseURL: servers.anthropic.baseURL, maxRetries: 0 }),
      model: 'claude-test',
      maxTokens: 20_000,
    });
    const result = await new LlmAgentRunner(model, pingProvider()).complete('Hi', {
      budget: { maxCostUsd: 10 },
      modelPrices: prices,
    });
    expect(result.messages.at(-1)).toMatchObject({ usage: { inputTokens: 900_000, cachedInputTokens: 800_000 } });
    // 100k at $3, 800k at $0.30, 10k at $15 per million.
    expect(result.budget!.spent.costUsd).toBeCloseTo(0.3 + 0.24 + 0.15, 9);
  });

  it('uses the input price when a price has no cached price', async () => {
    const model = new ScriptedModelClient(
      [{ text: 'Hi.', usage: { inputTokens: 1_000_000, cachedInputTokens: 500_000, outputTokens: 0 } }],
      { modelName: 'plain' },
    );
    const result = await new LlmAgentRunner(model, pingProvider()).complete('Hi', {
      budget: { maxCostUsd: 10 },
      modelPrices: { plain: { inputUsdPerMillionTokens: 2, outputUsdPerMillionTokens: 4 } },
    });
    expect(result.budget!.spent.costUsd).toBeCloseTo(2, 9);
  });

  it('refuses a cached price that is not a finite number >= 0', async () => {
    const model = new ScriptedModelClient([{ text: 'Hi.' }], { modelName: 'plain' });
    await expect(
      new LlmAgentRunner(model, pingProvider()).complete('Hi', {
        modelPrices: {
          plain: { inputUsdPerMillionTokens: 2, outputUsdPerMillionTokens: 4, cachedInputUsdPerMillionTokens: -1 },
        },
      }),
    ).rejects.toMatchObject({ code: 'invalid_run_options' });
    expect(model.requests).toHaveLength(0);
  });

  it('charges a key at the cached price too', async () => {
    const store = new MemoryRunStore();
    await store.budgetKeys.setKeyBudget('tenant', { maxCostUsd: 100 });
    const model = new ScriptedModelClient(
      [{ text: 'Hi.', usage: { inputTokens: 1_000_000, cachedInputTokens: 1_000_000, outputTokens: 0 } }],
      { modelName: 'claude-test' },
    );
    await new LlmAgentRunner(model, pingProvider()).complete('Hi', { store, budgetKey: 'tenant', modelPrices: prices });
    expect((await store.budgetKeys.loadKeyBudget('tenant'))!.spent.costUsd).toBeCloseTo(0.3, 9);
  });
});

describe('budget telemetry', () => {
  it('puts the tripped limit, the key and the dollars left on the run span', async () => {
    const harness = telemetryHarness();
    try {
      const store = new MemoryRunStore();
      await store.budgetKeys.setKeyBudget('tenant', { maxToolCalls: 1, maxCostUsd: 1 });
      const model = new ScriptedModelClient(
        [
          {
            toolCalls: [
              { name: 'ping', arguments: { n: 1 } },
              { name: 'ping', arguments: { n: 2 } },
            ],
            usage: { inputTokens: 1000, outputTokens: 0 },
          },
        ],
        { modelName: 'm' },
      );
      await new LlmAgentRunner(model, pingProvider()).complete(
        'Ping.',
        harness.telemetry.runOptions({
          store,
          budgetKey: 'tenant',
          budget: { maxCostUsd: 0.5 },
          modelPrices: { m: { inputUsdPerMillionTokens: 100, outputUsdPerMillionTokens: 100 } },
        }),
      );
      const span = harness.spans().find((one) => one.name.startsWith('invoke_agent'))!;
      expect(span.attributes).toMatchObject({
        [TELEMETRY_NAMES.budgetTripped]: 'maxToolCalls',
        [TELEMETRY_NAMES.budgetKey]: 'tenant',
        [TELEMETRY_NAMES.stopReason]: 'budget_exhausted',
      });
      expect(span.attributes[TELEMETRY_NAMES.budgetRemainingUsd]).toBeCloseTo(0.4, 9);
      expect(span.attributes[TELEMETRY_NAMES.keyBudgetRemainingUsd]).toBeCloseTo(0.9, 9);
    } finally {
      await harness.shutdown();
    }
  });
});

describe('ModelUsage.cachedInputTokens from each API', () => {
  const malformed = (detail: string) => new Error(detail) as never;

  it('reads OpenAI prompt_tokens_details and input_tokens_details', () => {
    const chat = { prompt_tokens: 100, completion_tokens: 7, prompt_tokens_details: { cached_tokens: 64 } };
    expect(mapUsage(chat, 'prompt_tokens', 'completion_tokens')).toEqual({
      inputTokens: 100,
      outputTokens: 7,
      cachedInputTokens: 64,
    });
    const responses = { input_tokens: 90, output_tokens: 3, input_tokens_details: { cached_tokens: 0 } };
    expect(mapUsage(responses, 'input_tokens', 'output_tokens')).toEqual({ inputTokens: 90, outputTokens: 3 });
  });

  it('reads the AI SDK cacheRead (V3) and cachedInputTokens (V2)', () => {
    expect(
      usageOf({ inputTokens: { total: 50, noCache: 20, cacheRead: 30 }, outputTokens: { total: 4 } }, malformed),
    ).toEqual({ inputTokens: 50, outputTokens: 4, cachedInputTokens: 30 });
    expect(usageOf({ inputTokens: 50, outputTokens: 4, cachedInputTokens: 10 }, malformed)).toEqual({
      inputTokens: 50,
      outputTokens: 4,
      cachedInputTokens: 10,
    });
  });
});
