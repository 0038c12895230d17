import { descriptorFromLlmTool } from '../../lib/contract';
import { LlmAgentRunner, ScriptedModelClient, ToolDescriptor, ToolProvider } from '../../lib';

// Every run checks first that each tool's effective projection policy can hold under the run's token
// estimator. A policy proven to hold is not checked again, whichever runner asks; these tests hold
// that nothing unproven is taken as proven when runners are built per request over one provider.

const descriptor: ToolDescriptor = descriptorFromLlmTool(
  { name: 'projected', description: 'd', inputSchema: { type: 'object', properties: {}, additionalProperties: false } },
  { modelOutputProjection: { maxBytes: 2048 } },
);
const provider: ToolProvider = { listTools: () => [descriptor], invoke: () => 'ok' };
/** An estimator under which no truncation envelope can be measured. */
const unmeasurable = { estimateTokens: (): number => Number.NaN };

async function runOnNewRunner(options: Parameters<LlmAgentRunner['complete']>[1]): Promise<ScriptedModelClient> {
  const model = new ScriptedModelClient([{ text: 'done' }]);
  await new LlmAgentRunner(model, provider).complete('go', options);
  return model;
}

describe('the projection check of a runner built per request', () => {
  it('fails the run of every new runner under an estimator the policies cannot hold under, with the same error', async () => {
    const errors: unknown[] = [];
    for (let construction = 0; construction < 2; construction++)
      await runOnNewRunner({ contextTokenEstimator: unmeasurable }).catch((error: unknown) => errors.push(error));
    expect(errors).toHaveLength(2);
    expect(errors[1]).toBeInstanceOf(Error);
    expect((errors[1] as Error).message).toBe((errors[0] as Error).message);
  });

  it('checks a policy proven under the default estimator again under another estimator', async () => {
    const model = await runOnNewRunner({});
    expect(model.requests).toHaveLength(1);
    await expect(runOnNewRunner({ contextTokenEstimator: unmeasurable })).rejects.toBeInstanceOf(Error);
  });

  it('refuses a run policy that cannot hold on every new runner, though the same tools passed under the default policy', async () => {
    await runOnNewRunner({});
    for (let construction = 0; construction < 2; construction++)
      await expect(runOnNewRunner({ toolOutputProjection: { maxBytes: 100, maxTokens: 10 } })).rejects.toMatchObject({
        code: expect.any(String),
      });
  });
});
