import Anthropic from '@anthropic-ai/sdk';
import type { LanguageModelV3CallOptions, LanguageModelV3Content, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { createOpenAI } from '@ai-sdk/openai';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';
import OpenAI from 'openai';
import { z } from 'zod';
import { AnthropicModelClient } from '../../lib/model/anthropic';
import { BaseModelClient } from '../../lib/model';
import { Field, LlmAgentRunOptions, LlmAgentRunResult, StructuredOutputError, Tool, ToolCallResult } from '../../lib';
import { AiSdkModelClient } from '../../lib/model/ai-sdk';
import { OpenAIModelClient } from '../../lib/model/openai';
import { completion, startChatCompletionsServer, streamedCompletion } from '../support/ai-sdk-openai-server';
import { messageReply, startMessagesApiServer } from '../support/messages-api-server';
import {
  chatReply,
  chatStreamReply,
  responsesReply,
  responsesStreamReply,
  ScriptedAnswer,
} from '../support/openai-api-fixtures';
import { startOpenAIApiServer } from '../support/openai-api-server';

/**
 * Native structured output through every model client, with the real SDKs against the local servers
 * (and the AI SDK mock model): the request carries the answer's schema under the provider's rules, the
 * tools stay available, the final text is parsed into the typed answer, a bad answer is repaired, and
 * `outputPolicy.mode: 'tool'` still gives the final-answer tool.
 */
@Tool({ description: 'Get the current weather for a city.' })
class GetWeather {
  @Field() city!: string;
  invoke(): string {
    return `${this.city} is 22 degrees.`;
  }
}

class Forecast {
  @Field({ description: 'The city.' }) city!: string;
  @Field({ description: 'Degrees Celsius.', schema: { minimum: -90 } }) degrees!: number;
  @Field({ description: 'A remark.', optional: true }) note?: string;

  line(): string {
    return `${this.city}: ${this.degrees}${this.note === undefined ? '' : ` (${this.note})`}`;
  }
}

/** One scripted model turn: a tool call, or a final text. */
type Answer =
  { readonly call: { readonly id: string; readonly name: string; readonly args: string } } | { readonly text: string };

type Mode = 'complete' | 'stream';

interface Harness {
  readonly client: BaseModelClient;
  /** The provider-level request of each step: the HTTP body, or the AI SDK call options. */
  bodies(): any[];
  close(): Promise<void>;
}

const openAIAnswer = (answer: Answer): ScriptedAnswer =>
  'call' in answer
    ? {
        calls: [
          {
            id: answer.call.id,
            name: answer.call.name,
            pieces: [answer.call.args.slice(0, 4), answer.call.args.slice(4)],
          },
        ],
      }
    : { text: [answer.text.slice(0, 6), answer.text.slice(6)] };

function mockContent(answer: Answer): LanguageModelV3Content[] {
  return 'call' in answer
    ? [{ type: 'tool-call', toolCallId: answer.call.id, toolName: answer.call.name, input: answer.call.args }]
    : [{ type: 'text', text: answer.text }];
}

const USAGE = {
  inputTokens: { total: 3, noCache: 3, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 2, text: 2, reasoning: 0 },
};

function mockParts(answer: Answer): LanguageModelV3StreamPart[] {
  const body: LanguageModelV3StreamPart[] =
    'call' in answer
      ? [{ type: 'tool-call', toolCallId: answer.call.id, toolName: answer.call.name, input: answer.call.args }]
      : [
          { type: 'text-start', id: 't' },
          { type: 'text-delta', id: 't', delta: answer.text.slice(0, 5) },
          { type: 'text-delta', id: 't', delta: answer.text.slice(5) },
          { type: 'text-end', id: 't' },
        ];
  const unified = 'call' in answer ? 'tool-calls' : 'stop';
  return [
    { type: 'stream-start', warnings: [] },
    ...body,
    { type: 'finish', finishReason: { unified, raw: unified }, usage: USAGE },
  ];
}

const CLIENTS: Record<string, (mode: Mode, answers: readonly Answer[]) => Promise<Harness>> = {
  anthropic: async (_mode, answers) => {
    const server = await startMessagesApiServer();
    server.enqueue(
      ...answers.map((answer) =>
        messageReply(
          'call' in answer
            ? {
                content: [
                  {
                    type: 'tool_use',
                    id: answer.call.id,
                    name: answer.call.name,
                    input: JSON.parse(answer.call.args) as unknown,
                  },
                ],
                stop_reason: 'tool_use',
              }
            : { content: [{ type: 'text', text: answer.text }], stop_reason: 'end_turn' },
        ),
      ),
    );
    const client = new AnthropicModelClient({
      client: new Anthropic({ apiKey: 'test-key', baseURL: server.baseURL, maxRetries: 0 }),
    });
    return { client, bodies: () => server.requests.map((request) => request.body), close: () => server.close() };
  },
  'openai chat': async (mode, answers) => {
    const server = await startOpenAIApiServer();
    server.enqueue(
      ...answers.map((answer) =>
        mode === 'stream' ? chatStreamReply(openAIAnswer(answer)) : chatReply(openAIAnswer(answer)),
      ),
    );
    const client = new OpenAIModelClient({
      client: new OpenAI({ apiKey: 'test-key', baseURL: server.baseURL, maxRetries: 0 }),
      api: 'chat',
    });
    return { client, bodies: () => server.requests.map((request) => request.body), close: () => server.close() };
  },
  'openai responses': async (mode, answers) => {
    const server = await startOpenAIApiServer();
    server.enqueue(
      ...answers.map((answer) =>
        mode === 'stream' ? responsesStreamReply(openAIAnswer(answer)) : responsesReply(openAIAnswer(answer)),
      ),
    );
    const client = new OpenAIModelClient({
      client: new OpenAI({ apiKey: 'test-key', baseURL: server.baseURL, maxRetries: 0 }),
      api: 'responses',
    });
    return { client, bodies: () => server.requests.map((request) => request.body), close: () => server.close() };
  },
  'ai-sdk (@ai-sdk/openai)': async (mode, answers) => {
    const server = await startChatCompletionsServer();
    server.enqueue(
      ...answers.map((answer) => {
        const script =
          'call' in answer
            ? { toolCalls: [{ id: answer.call.id, name: answer.call.name, arguments: answer.call.args }] }
            : { text: answer.text };
        return mode === 'stream' ? streamedCompletion(script) : completion(script);
      }),
    );
    const client = new AiSdkModelClient(createOpenAI({ apiKey: 'test-key', baseURL: server.baseURL }).chat('gpt-test'));
    return { client, bodies: () => server.requests.map((request) => request.body), close: () => server.close() };
  },
  'ai-sdk (mock model)': async (_mode, answers) => {
    const calls: LanguageModelV3CallOptions[] = [];
    let next = 0;
    const model = new MockLanguageModelV3({
      doGenerate: async (options) => {
        calls.push(options);
        return {
          content: mockContent(answers[next++]),
          finishReason: { unified: 'stop', raw: 'stop' },
          usage: USAGE,
          warnings: [],
        };
      },
      doStream: async (options) => {
        calls.push(options);
        return { stream: convertArrayToReadableStream(mockParts(answers[next++])) };
      },
    });
    return { client: new AiSdkModelClient(model), bodies: () => calls, close: async () => undefined };
  },
};

/** The schema and strictness each client put in a request, in one shape. */
function sentFormat(name: string, body: any): { schema: any; strict?: boolean; name?: string } | undefined {
  switch (name) {
    case 'anthropic':
      return body.output_config?.format === undefined ? undefined : { schema: body.output_config.format.schema };
    case 'openai chat':
    case 'ai-sdk (@ai-sdk/openai)':
      return body.response_format === undefined
        ? undefined
        : { ...body.response_format.json_schema, schema: body.response_format.json_schema.schema };
    case 'openai responses':
      return body.text?.format === undefined ? undefined : body.text.format;
    default:
      return body.responseFormat === undefined
        ? undefined
        : { schema: body.responseFormat.schema, name: body.responseFormat.name };
  }
}

/** The tool names a request offered. */
function offeredTools(name: string, body: any): string[] {
  const tools: any[] = body.tools ?? [];
  return tools.map((tool) => tool.name ?? tool.function?.name);
}

async function run(
  harness: Harness,
  mode: Mode,
  options: LlmAgentRunOptions & { output: typeof Forecast },
): Promise<LlmAgentRunResult<ToolCallResult, Forecast>> {
  const runner = harness.client.bindTools(GetWeather);
  if (mode === 'complete')
    return runner.complete('Forecast for Oslo?', options) as Promise<LlmAgentRunResult<ToolCallResult, Forecast>>;
  const stream = runner.stream('Forecast for Oslo?', options);
  const deltas: string[] = [];
  for await (const event of stream) if (event.type === 'text_delta') deltas.push(event.text);
  const result = (await stream.result) as LlmAgentRunResult<ToolCallResult, Forecast>;
  expect(deltas.join('')).toContain('"degrees":22');
  return result;
}

describe.each(Object.keys(CLIENTS))('native structured output through %s', (name) => {
  it.each<Mode>(['complete', 'stream'])(
    '%s: tools first, then the schema-bound final text, a bad answer repaired',
    async (mode) => {
      const harness = await CLIENTS[name](mode, [
        { call: { id: 'call_0', name: 'GetWeather', args: '{"city":"Oslo"}' } },
        { text: '{"city":"Oslo"}' },
        { text: '{"city":"Oslo","degrees":22,"note":null}' },
      ]);
      try {
        const result = await run(harness, mode, { output: Forecast });
        expect(result.stopReason).toBe('end_turn');
        expect(result.output).toBeInstanceOf(Forecast);
        expect(result.output!.line()).toBe('Oslo: 22');
        expect(result.toolCalls.map((call) => [call.toolName, call.outcome.ok])).toEqual([['GetWeather', true]]);
        const repair = result.messages.filter((message) => message.role === 'user').at(-1);
        expect(repair?.content).toEqual(expect.stringContaining('degrees'));

        const bodies = harness.bodies();
        expect(bodies).toHaveLength(3);
        for (const body of bodies) {
          expect(offeredTools(name, body)).toEqual(['GetWeather']);
          const format = sentFormat(name, body);
          expect(format?.schema).toMatchObject({
            type: 'object',
            properties: { city: { type: 'string' }, degrees: { type: 'number' } },
          });
          if (name === 'anthropic') {
            expect(format!.schema).toMatchObject({ additionalProperties: false, required: ['city', 'degrees'] });
            expect(format!.schema.properties.degrees).not.toHaveProperty('minimum');
            expect(format!.schema.properties.degrees.description).toContain('minimum: -90');
          }
          if (name.startsWith('openai') || name === 'ai-sdk (@ai-sdk/openai)') {
            expect(format).toMatchObject({ name: 'final_answer', strict: true });
            expect(format!.schema).toMatchObject({
              additionalProperties: false,
              required: ['city', 'degrees', 'note'],
            });
            expect(format!.schema.properties.note.type).toEqual(['string', 'null']);
          }
        }
      } finally {
        await harness.close();
      }
    },
  );

  it('fails with StructuredOutputError after maxRepairs bad answers', async () => {
    const harness = await CLIENTS[name]('complete', [{ text: 'Oslo is warm.' }, { text: '{"city":"Oslo"}' }]);
    try {
      const error = await run(harness, 'complete', { output: Forecast, outputPolicy: { maxRepairs: 1 } }).catch(
        (caught: unknown) => caught,
      );
      expect(StructuredOutputError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: 'output_invalid', lastAnswer: '{"city":"Oslo"}' });
      expect(harness.bodies()).toHaveLength(2);
    } finally {
      await harness.close();
    }
  });

  it("mode 'tool' sends no response format and offers the final-answer tool", async () => {
    const harness = await CLIENTS[name]('complete', [
      { call: { id: 'call_9', name: 'final_answer', args: '{"city":"Oslo","degrees":22}' } },
    ]);
    try {
      const result = await run(harness, 'complete', { output: Forecast, outputPolicy: { mode: 'tool' } });
      expect(result.output!.line()).toBe('Oslo: 22');
      const [body] = harness.bodies();
      expect(sentFormat(name, body)).toBeUndefined();
      expect(offeredTools(name, body)).toEqual(['GetWeather', 'final_answer']);
    } finally {
      await harness.close();
    }
  });
});

describe('an output schema with a free-form (record) field', () => {
  const Tally = z.object({ city: z.string(), counts: z.record(z.string(), z.number()) });

  it("Anthropic cannot express it natively: 'auto' gives the final-answer tool, 'native' is refused before any request", async () => {
    const server = await startMessagesApiServer();
    server.enqueue(
      messageReply({
        content: [
          { type: 'tool_use', id: 'toolu_1', name: 'final_answer', input: { city: 'Oslo', counts: { sun: 3 } } },
        ],
        stop_reason: 'tool_use',
      }),
    );
    try {
      const runner = new AnthropicModelClient({
        client: new Anthropic({ apiKey: 'test-key', baseURL: server.baseURL, maxRetries: 0 }),
      }).bindTools(GetWeather);
      const result = await runner.complete('Tally?', { output: Tally });
      expect(result.output).toEqual({ city: 'Oslo', counts: { sun: 3 } });
      expect(server.requests[0].body.output_config).toBeUndefined();
      expect(offeredTools('anthropic', server.requests[0].body)).toEqual(['GetWeather', 'final_answer']);
      await expect(
        runner.complete('Tally?', { output: Tally, outputPolicy: { mode: 'native' } }),
      ).rejects.toMatchObject({ code: 'invalid_run_options' });
      expect(server.requests).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('OpenAI sends it natively without strict (the schema as it is)', async () => {
    const server = await startOpenAIApiServer();
    server.enqueue(chatReply({ text: ['{"city":"Oslo","counts":{"sun":3}}'] }));
    try {
      const client = new OpenAIModelClient({
        client: new OpenAI({ apiKey: 'test-key', baseURL: server.baseURL, maxRetries: 0 }),
        api: 'chat',
      });
      const result = await client.bindTools(GetWeather).complete('Tally?', { output: Tally });
      expect(result.output).toEqual({ city: 'Oslo', counts: { sun: 3 } });
      expect(server.requests[0].body.response_format.json_schema).toMatchObject({
        name: 'final_answer',
        strict: false,
        schema: { properties: { counts: { additionalProperties: { type: 'number' } } } },
      });
    } finally {
      await server.close();
    }
  });
});

describe('bad native answers on the wire', () => {
  it('an OpenAI refusal and a Claude answer cut at max_tokens are repaired', async () => {
    const openai = await startOpenAIApiServer();
    openai.enqueue(
      chatReply({ refusal: ['I cannot help with that.'] }),
      chatReply({ text: ['{"city":"Oslo","degrees":1,"note":null}'] }),
    );
    const claude = await startMessagesApiServer();
    claude.enqueue(
      messageReply({ content: [{ type: 'text', text: '{"city":"Os' }], stop_reason: 'max_tokens' }),
      messageReply({ content: [{ type: 'text', text: '{"city":"Oslo","degrees":1}' }], stop_reason: 'end_turn' }),
    );
    try {
      const chat = new OpenAIModelClient({
        client: new OpenAI({ apiKey: 'test-key', baseURL: openai.baseURL, maxRetries: 0 }),
        api: 'chat',
      });
      const refused = await chat.bindTools(GetWeather).complete('Forecast?', { output: Forecast });
      expect(refused.output).toBeInstanceOf(Forecast);
      expect(openai.requests[1].body.messages.at(-1)).toMatchObject({
        role: 'user',
        content: expect.stringContaining('refused'),
      });

      const anthropic = new AnthropicModelClient({
        client: new Anthropic({ apiKey: 'test-key', baseURL: claude.baseURL, maxRetries: 0 }),
      });
      const cut = await anthropic.bindTools(GetWeather).complete('Forecast?', { output: Forecast });
      expect(cut.output!.line()).toBe('Oslo: 1');
      expect(JSON.stringify(claude.requests[1].body.messages.at(-1))).toContain('token limit');
    } finally {
      await openai.close();
      await claude.close();
    }
  });
});
