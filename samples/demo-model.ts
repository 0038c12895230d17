/**
 * Which model the demo runs on, from the environment:
 *
 * - `ANTHROPIC_API_KEY` set: Claude through AnthropicModelClient;
 * - else `OPENAI_API_KEY` or `OPENAI_BASE_URL` set: OpenAI's Chat Completions API through `@ai-sdk/openai`
 *   and AiSdkModelClient (`OPENAI_BASE_URL` for a local OpenAI-compatible server such as Ollama,
 *   vLLM or llama.cpp, which needs no key; `OPENAI_MODEL` names the model);
 * - else the offline scripted model of the sample.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { ModelClient } from '../lib';
import { AnthropicModelClient } from '../lib/model/anthropic';
import { AiSdkModelClient } from '../lib/model/ai-sdk';

/** The OpenAI model the demo asks for when `OPENAI_MODEL` is not set. */
export const DEMO_OPENAI_MODEL = 'gpt-4.1-mini';

/** The model the demo runs on, and a sentence that says which and why. */
export interface DemoModel {
  readonly model: ModelClient;
  readonly description: string;
}

/** Picks the demo's model from `env`; `scripted` builds the offline model. */
export function demoModel(scripted: () => ModelClient, env: NodeJS.ProcessEnv = process.env): DemoModel {
  if (nonEmpty(env.ANTHROPIC_API_KEY)) {
    const model = new AnthropicModelClient({ apiKey: env.ANTHROPIC_API_KEY });
    return {
      model,
      description: `Claude (${model.modelName}) through AnthropicModelClient, because ANTHROPIC_API_KEY is set`,
    };
  }
  const baseURL = nonEmpty(env.OPENAI_BASE_URL) ? env.OPENAI_BASE_URL : undefined;
  if (nonEmpty(env.OPENAI_API_KEY) || baseURL !== undefined) {
    // A local OpenAI-compatible server needs no key; the provider still sends one.
    const openai = createOpenAI({
      apiKey: nonEmpty(env.OPENAI_API_KEY) ? env.OPENAI_API_KEY : 'no-key',
      ...(baseURL !== undefined ? { baseURL } : {}),
    });
    const model = new AiSdkModelClient(openai.chat(nonEmpty(env.OPENAI_MODEL) ? env.OPENAI_MODEL : DEMO_OPENAI_MODEL));
    const where =
      baseURL !== undefined ? `the server at OPENAI_BASE_URL (${baseURL})` : 'OpenAI, because OPENAI_API_KEY is set';
    return { model, description: `${model.modelName} through @ai-sdk/openai and AiSdkModelClient, on ${where}` };
  }
  return {
    model: scripted(),
    description:
      'offline, scripted; set ANTHROPIC_API_KEY for Claude, OPENAI_API_KEY for OpenAI, or OPENAI_BASE_URL for a local OpenAI-compatible server',
  };
}

function nonEmpty(value: string | undefined): value is string {
  return value !== undefined && value.trim().length > 0;
}
