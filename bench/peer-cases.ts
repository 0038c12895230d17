/**
 * The peer side of `peers.bench.ts`: the same weather tool (`get_weather`, `{ city, unit? }` returning
 * `{ city, degrees: 22 }` from an async function) and the same scripted model (first a call of the tool
 * with the JSON text `{"city":"Tokyo"}`, then a text answer) built with the Vercel AI SDK, the OpenAI
 * Agents SDK and LangChain.js, each through its own public exports only. Peers are devDependencies of
 * the bench; nothing under lib/ imports them.
 */
import type { JSONSchema7, LanguageModelV3GenerateResult, LanguageModelV3Usage } from '@ai-sdk/provider';
import { safeParseJSON } from '@ai-sdk/provider-utils';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { tool as langchainTool } from '@langchain/core/tools';
import {
  Agent,
  RunContext,
  Runner,
  Usage,
  run,
  setTraceProcessors,
  tool as agentsTool,
  type Model,
  type ModelRequest,
  type ModelResponse,
  type StreamEvent,
} from '@openai/agents-core';
import Ajv from 'ajv';
import { asSchema, generateText, jsonSchema, stepCountIs, tool as aiTool, type Tool as AiTool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';
import {
  answerText,
  prompt,
  weatherAsync,
  weatherCall,
  weatherInputSchema as weatherSchema,
  type WeatherArgs,
  type WeatherResult,
} from './weather-tool';

const weatherInputSchema: JSONSchema7 = weatherSchema;

const weatherZod = z.object({ city: z.string(), unit: z.enum(['celsius', 'fahrenheit']).optional() });

// ---- Vercel AI SDK (ai 6) ----

const aiUsage: LanguageModelV3Usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** A `MockLanguageModelV3` that asks for the tool until the prompt ends with its result, then answers. */
function aiModel(): MockLanguageModelV3 {
  const model: MockLanguageModelV3 = new MockLanguageModelV3({
    doGenerate: async (options): Promise<LanguageModelV3GenerateResult> => {
      // The mock records every request; dropping them keeps memory flat over many runs.
      model.doGenerateCalls.length = 0;
      const last = options.prompt[options.prompt.length - 1];
      if (last?.role === 'tool')
        return {
          content: [{ type: 'text', text: answerText }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage: aiUsage,
          warnings: [],
        };
      return {
        content: [
          { type: 'tool-call', toolCallId: weatherCall.id, toolName: weatherCall.name, input: weatherCall.arguments },
        ],
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage: aiUsage,
        warnings: [],
      };
    },
  });
  return model;
}

/** AI SDK tool with a `jsonSchema(...)` input schema (no `validate` option: the SDK checks nothing). */
export const aiJsonTool = aiTool({
  description: 'Get the weather.',
  inputSchema: jsonSchema<WeatherArgs>(weatherInputSchema),
  execute: weatherAsync,
});

const ajv = new Ajv();
const ajvWeather = ajv.compile<WeatherArgs>(weatherInputSchema);

/**
 * AI SDK tool with a `jsonSchema(...)` input schema and a `validate` option that runs a precompiled
 * ajv validator of the same schema (how a host gets the input checked against a JSON Schema).
 */
export const aiCheckedTool = aiTool({
  description: 'Get the weather.',
  inputSchema: jsonSchema<WeatherArgs>(weatherInputSchema, {
    validate: (value) =>
      ajvWeather(value)
        ? { success: true, value }
        : { success: false, error: new Error(ajv.errorsText(ajvWeather.errors)) },
  }),
  execute: weatherAsync,
});

/** AI SDK tool with a zod input schema (validated with zod's `safeParseAsync`). */
export const aiZodTool = aiTool({ description: 'Get the weather.', inputSchema: weatherZod, execute: weatherAsync });

/**
 * What `generateText` does for one tool call (its `doParseToolCall` and `executeToolCall`, without
 * the telemetry span, the callbacks and the `executeTool` stream wrapper): `asSchema` of the tool's
 * input schema, `safeParseJSON({ text, schema })` (secure-json-parse, then `safeValidateTypes`
 * against the schema), then `execute(input, { toolCallId, messages })`.
 */
export async function aiSdkToolCall(tool: AiTool<WeatherArgs, WeatherResult>): Promise<WeatherResult> {
  const parsed = await safeParseJSON({ text: weatherCall.arguments, schema: asSchema(tool.inputSchema) });
  if (!parsed.success) throw parsed.error;
  return (await tool.execute!(parsed.value, { toolCallId: weatherCall.id, messages: [] })) as WeatherResult;
}

/** One agent turn: `generateText` with the tool and `stopWhen: stepCountIs(2)`. */
export function aiSdkTurn(tool: AiTool<WeatherArgs, WeatherResult>): () => Promise<string> {
  const model = aiModel();
  const tools = { get_weather: tool };
  return async () => (await generateText({ model, tools, prompt, stopWhen: stepCountIs(2) })).text;
}

// ---- OpenAI Agents SDK (@openai/agents-core) ----

/** A `Model` that returns the tool call until the input ends with its result, then the answer. */
class ScriptedAgentsModel implements Model {
  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const input = request.input;
    const last = typeof input === 'string' ? undefined : input[input.length - 1];
    const usage = new Usage({ requests: 1, inputTokens: 10, outputTokens: 5, totalTokens: 15 });
    if (last?.type === 'function_call_result')
      return {
        usage,
        output: [
          {
            type: 'message',
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text: answerText }],
          },
        ],
      };
    return {
      usage,
      output: [
        {
          type: 'function_call',
          callId: weatherCall.id,
          name: weatherCall.name,
          arguments: weatherCall.arguments,
          status: 'completed',
        },
      ],
    };
  }

  getStreamedResponse(): AsyncIterable<StreamEvent> {
    throw new Error('not scripted');
  }
}

/** Agents SDK tool with JSON Schema parameters (`strict: false`; the SDK only JSON.parses them). */
export const agentsJsonTool = agentsTool({
  name: 'get_weather',
  description: 'Get the weather.',
  parameters: weatherInputSchema as never,
  strict: false,
  execute: (args) => weatherAsync(args as WeatherArgs),
});

/** Agents SDK tool with zod parameters (parsed with zod after JSON.parse; strict mode). */
export const agentsZodTool = agentsTool({
  name: 'get_weather',
  description: 'Get the weather.',
  parameters: weatherZod,
  execute: weatherAsync,
});

/** One run context reused by the per-call case (a run makes one per run). */
export const agentsRunContext = new RunContext();

// agents-core alone exports its traces to the console (the OpenAI exporter comes with @openai/agents):
// no processor, so `run()` still builds its trace and spans but prints and sends nothing.
setTraceProcessors([]);

/** The agent of the per-turn cases. */
const agent = new Agent({
  name: 'weather',
  instructions: 'Answer with the weather.',
  tools: [agentsJsonTool],
  model: new ScriptedAgentsModel(),
});
const untracedRunner = new Runner({ tracingDisabled: true });

/** One agent turn: `run(agent, prompt)` (the default runner, tracing on, no trace processor). */
export async function agentsTurn(): Promise<unknown> {
  return (await run(agent, prompt)).finalOutput;
}

/** One agent turn on a `Runner({ tracingDisabled: true })`. */
export async function agentsUntracedTurn(): Promise<unknown> {
  return (await untracedRunner.run(agent, prompt)).finalOutput;
}

// ---- LangChain.js (@langchain/core) ----

/** LangChain tool with a JSON Schema (validated by @cfworker/json-schema on every call). */
export const langchainJsonTool = langchainTool(weatherAsync, {
  name: 'get_weather',
  description: 'Get the weather.',
  schema: weatherInputSchema as never,
});

/** LangChain tool with a zod schema. */
export const langchainZodTool = langchainTool(weatherAsync, {
  name: 'get_weather',
  description: 'Get the weather.',
  schema: weatherZod,
});

/**
 * A chat model that answers with the tool call until the last message is a tool result, then with
 * text. Its arguments come as JSON text and are parsed here, as a provider integration does when it
 * builds `tool_calls`.
 */
class ScriptedChatModel extends BaseChatModel {
  _llmType(): string {
    return 'scripted';
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const last = messages[messages.length - 1];
    const message = ToolMessage.isInstance(last)
      ? new AIMessage(answerText)
      : new AIMessage({
          content: '',
          tool_calls: [
            { id: weatherCall.id, name: weatherCall.name, args: JSON.parse(weatherCall.arguments), type: 'tool_call' },
          ],
        });
    return { generations: [{ text: typeof message.content === 'string' ? message.content : '', message }] };
  }
}

const chatModel = new ScriptedChatModel({});

/**
 * One agent turn as LangChain's tool-calling guide writes it with @langchain/core alone (it has no
 * loop of its own): `model.invoke(messages)`, each `tool_calls` entry through `tool.invoke(toolCall)`
 * (a ToolMessage), then `model.invoke(messages)` again.
 */
export async function langchainTurn(): Promise<string> {
  const messages: BaseMessage[] = [new HumanMessage(prompt)];
  for (let step = 0; step < 2; step++) {
    const reply = await chatModel.invoke(messages);
    messages.push(reply);
    if (reply.tool_calls === undefined || reply.tool_calls.length === 0) return reply.text;
    for (const call of reply.tool_calls) messages.push(await langchainJsonTool.invoke(call));
  }
  throw new Error('no answer after two steps');
}
