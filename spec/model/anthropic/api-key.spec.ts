import { AnthropicModelClient } from '../../../lib/model/anthropic';
import { ModelClientOptionsError } from '../../../lib';

describe('AnthropicModelClient API key', () => {
  const saved = { key: process.env.ANTHROPIC_API_KEY, token: process.env.ANTHROPIC_AUTH_TOKEN };
  afterEach(() => {
    for (const [name, value] of [
      ['ANTHROPIC_API_KEY', saved.key],
      ['ANTHROPIC_AUTH_TOKEN', saved.token],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it('is reported at construction, naming ANTHROPIC_API_KEY, when neither the environment nor the options give one', () => {
    delete process.env.ANTHROPIC_API_KEY;
    delete process.env.ANTHROPIC_AUTH_TOKEN;
    expect(() => new AnthropicModelClient()).toThrow(ModelClientOptionsError);
    expect(() => new AnthropicModelClient()).toThrow(/ANTHROPIC_API_KEY/);
    process.env.ANTHROPIC_API_KEY = '   ';
    expect(() => new AnthropicModelClient({ model: 'claude-sonnet-5-5' })).toThrow(
      /set the ANTHROPIC_API_KEY environment variable/,
    );
  });

  it('is satisfied by the environment, the apiKey option or a ready client', () => {
    delete process.env.ANTHROPIC_API_KEY;
    expect(new AnthropicModelClient({ apiKey: 'key' }).modelName).toBe('claude-sonnet-5-5');
    expect(
      () => new AnthropicModelClient({ client: { messages: { create: () => Promise.resolve({}) } } }),
    ).not.toThrow();
    process.env.ANTHROPIC_API_KEY = 'env-key';
    expect(() => new AnthropicModelClient()).not.toThrow();
  });
});
