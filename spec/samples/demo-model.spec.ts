import { AnthropicModelClient } from '../../lib/model/anthropic';
import { ScriptedModelClient } from '../../lib';
import { AiSdkModelClient } from '../../lib/model/ai-sdk';
import { demoModel, DEMO_OPENAI_MODEL } from '../../samples/demo-model';
import { main as weather } from '../../samples/01-define-a-tool/main';
import { completion, startChatCompletionsServer } from '../support/ai-sdk-openai-server';

const MODEL_VARIABLES = ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'OPENAI_BASE_URL', 'OPENAI_MODEL'] as const;

/** Runs `body` with exactly `values` set among the model variables, restoring them after. */
async function withModelEnvironment<T>(
  values: Partial<Record<(typeof MODEL_VARIABLES)[number], string>>,
  body: () => Promise<T>,
): Promise<T> {
  const saved = Object.fromEntries(MODEL_VARIABLES.map((name) => [name, process.env[name]]));
  for (const name of MODEL_VARIABLES) {
    if (values[name] === undefined) delete process.env[name];
    else process.env[name] = values[name];
  }
  try {
    return await body();
  } finally {
    for (const name of MODEL_VARIABLES) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  }
}

describe('the demo picks its model from the environment', () => {
  const scripted = (): ScriptedModelClient => new ScriptedModelClient([{ text: 'offline' }]);

  it('offline: the scripted model, saying how to pick a real one', () => {
    const picked = demoModel(scripted, {});
    expect(picked.model).toBeInstanceOf(ScriptedModelClient);
    expect(picked.description).toMatch(/^offline, scripted; set ANTHROPIC_API_KEY .*OPENAI_API_KEY .*OPENAI_BASE_URL/);
  });

  it('ANTHROPIC_API_KEY: Claude, also when OpenAI is configured', () => {
    const picked = demoModel(scripted, { ANTHROPIC_API_KEY: 'sk-ant', OPENAI_API_KEY: 'sk-openai' });
    expect(picked.model).toBeInstanceOf(AnthropicModelClient);
    expect(picked.description).toMatch(
      /^Claude \(.+\) through AnthropicModelClient, because ANTHROPIC_API_KEY is set$/,
    );
  });

  it('OPENAI_API_KEY: OpenAI through @ai-sdk/openai and AiSdkModelClient; OPENAI_MODEL names the model', () => {
    const picked = demoModel(scripted, { OPENAI_API_KEY: 'sk-openai', ANTHROPIC_API_KEY: ' ' });
    expect(picked.model).toBeInstanceOf(AiSdkModelClient);
    expect(picked.model.modelName).toBe(DEMO_OPENAI_MODEL);
    expect(picked.description).toBe(
      `${DEMO_OPENAI_MODEL} through @ai-sdk/openai and AiSdkModelClient, on OpenAI, because OPENAI_API_KEY is set`,
    );
    expect(demoModel(scripted, { OPENAI_API_KEY: 'sk-openai', OPENAI_MODEL: 'gpt-other' }).model.modelName).toBe(
      'gpt-other',
    );
  });

  it('OPENAI_BASE_URL without a key: the weather sample runs its tool call and answer on that server', async () => {
    const server = await startChatCompletionsServer();
    try {
      server.enqueue(
        completion({ toolCalls: [{ id: 'call_1', name: 'GetWeather', arguments: '{"city":"Tokyo"}' }] }),
        completion({ text: 'Tokyo is 22 degrees, says the tool.' }),
      );
      const picked = demoModel(scripted, { OPENAI_BASE_URL: server.baseURL, OPENAI_MODEL: 'llama-local' });
      expect(picked.description).toBe(
        `llama-local through @ai-sdk/openai and AiSdkModelClient, on the server at OPENAI_BASE_URL (${server.baseURL})`,
      );

      const { run } = await withModelEnvironment({ OPENAI_BASE_URL: server.baseURL, OPENAI_MODEL: 'llama-local' }, () =>
        weather(() => undefined),
      );
      expect(run.text).toBe('Tokyo is 22 degrees, says the tool.');
      expect(run.toolCalls[0].outcome).toEqual({ ok: true, text: 'Tokyo is 22 degrees.' });
      expect(server.requests.map((request) => request.body.model)).toEqual(['llama-local', 'llama-local']);
      expect(server.requests[1].body.messages[2]).toEqual({
        role: 'tool',
        tool_call_id: 'call_1',
        content: 'Tokyo is 22 degrees.',
      });
    } finally {
      await server.close();
    }
  });
});
