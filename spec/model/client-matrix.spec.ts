import Anthropic from '@anthropic-ai/sdk';
import { createOpenAI } from '@ai-sdk/openai';
import OpenAI from 'openai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AnthropicModelClient } from '../../lib/model/anthropic';
import { BaseModelClient } from '../../lib/model';
import { Contract, Field, LlmAgentRunResult, ScriptedModelClient, Tool } from '../../lib';
import { SqliteRunStore } from '../../lib/durable/sqlite';
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
 * One scripted conversation through every model client, whole (`complete()`) and streamed (`stream()`),
 * on a real SQLite file: turn 1 asks for the weather in Oslo and a charge (not idempotent) under the
 * ids `call_0` and `call_1`; turn 2 asks for the weather in Rome under `call_0` again (OpenAI-compatible
 * servers reuse ids every turn); turn 3 answers. Every client must give the same calls, outcomes,
 * per-turn idempotency keys and durable record.
 */
const charges: number[] = [];

@Tool({ description: 'Get the current weather for a city.' })
@Contract({ sideEffect: 'read', idempotency: 'idempotent' })
class GetWeather {
  @Field() city!: string;
  invoke(): string {
    return `${this.city} is 22 degrees.`;
  }
}

@Tool({ description: 'Charge an amount in cents.' })
@Contract({ sideEffect: 'write', idempotency: 'non_idempotent' })
class Charge {
  @Field({ type: Number }) cents!: number;
  invoke(): string {
    charges.push(this.cents);
    return `charged ${this.cents}`;
  }
}

interface Turn {
  readonly calls: readonly { readonly id: string; readonly name: string; readonly args: string }[];
  readonly text?: string;
}

const TURNS: readonly Turn[] = [
  {
    calls: [
      { id: 'call_0', name: 'GetWeather', args: '{"city":"Oslo"}' },
      { id: 'call_1', name: 'Charge', args: '{"cents":500}' },
    ],
  },
  { calls: [{ id: 'call_0', name: 'GetWeather', args: '{"city":"Rome"}' }] },
  { calls: [], text: 'Oslo and Rome are 22 degrees; charged 500.' },
];

const openAIAnswer = (turn: Turn): ScriptedAnswer => ({
  ...(turn.text === undefined ? {} : { text: [turn.text.slice(0, 10), turn.text.slice(10)] }),
  calls: turn.calls.map((call) => ({
    id: call.id,
    name: call.name,
    pieces: [call.args.slice(0, 5), call.args.slice(5)],
  })),
});

interface Harness {
  readonly client: BaseModelClient;
  close(): Promise<void>;
}

type Mode = 'complete' | 'stream';

const CLIENTS: Record<string, (mode: Mode) => Promise<Harness>> = {
  scripted: async () => ({
    client: new ScriptedModelClient(
      TURNS.map((turn) => ({
        text: turn.text ?? '',
        toolCalls: turn.calls.map((call) => ({ id: call.id, name: call.name, arguments: call.args })),
      })),
    ),
    close: async () => undefined,
  }),
  anthropic: async () => {
    const server = await startMessagesApiServer();
    server.enqueue(
      ...TURNS.map((turn) =>
        messageReply({
          content: [
            ...(turn.text === undefined ? [] : [{ type: 'text', text: turn.text }]),
            ...turn.calls.map((call) => ({
              type: 'tool_use',
              id: call.id,
              name: call.name,
              input: JSON.parse(call.args) as unknown,
            })),
          ],
          stop_reason: turn.calls.length > 0 ? 'tool_use' : 'end_turn',
        }),
      ),
    );
    const client = new AnthropicModelClient({
      client: new Anthropic({ apiKey: 'test-key', baseURL: server.baseURL, maxRetries: 0 }),
    });
    return { client, close: () => server.close() };
  },
  'openai chat': async (mode) => {
    const server = await startOpenAIApiServer();
    server.enqueue(
      ...TURNS.map((turn) => (mode === 'stream' ? chatStreamReply(openAIAnswer(turn)) : chatReply(openAIAnswer(turn)))),
    );
    const client = new OpenAIModelClient({
      client: new OpenAI({ apiKey: 'test-key', baseURL: server.baseURL, maxRetries: 0 }),
      api: 'chat',
    });
    return { client, close: () => server.close() };
  },
  'openai responses': async (mode) => {
    const server = await startOpenAIApiServer();
    server.enqueue(
      ...TURNS.map((turn) =>
        mode === 'stream' ? responsesStreamReply(openAIAnswer(turn)) : responsesReply(openAIAnswer(turn)),
      ),
    );
    const client = new OpenAIModelClient({
      client: new OpenAI({ apiKey: 'test-key', baseURL: server.baseURL, maxRetries: 0 }),
      api: 'responses',
    });
    return { client, close: () => server.close() };
  },
  'ai-sdk (@ai-sdk/openai)': async (mode) => {
    const server = await startChatCompletionsServer();
    server.enqueue(
      ...TURNS.map((turn) => {
        const script = {
          ...(turn.text === undefined ? {} : { text: turn.text }),
          toolCalls: turn.calls.map((call) => ({ id: call.id, name: call.name, arguments: call.args })),
        };
        return mode === 'stream' ? streamedCompletion(script) : completion(script);
      }),
    );
    const provider = createOpenAI({ apiKey: 'test-key', baseURL: server.baseURL });
    return { client: new AiSdkModelClient(provider.chat('gpt-test')), close: () => server.close() };
  },
};

describe.each(Object.keys(CLIENTS))('the same conversation through %s', (name) => {
  let dir: string;

  beforeEach(() => {
    charges.length = 0;
    dir = mkdtempSync(join(tmpdir(), 'wuwe-matrix-'));
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it.each<Mode>(['complete', 'stream'])(
    '%s: every call runs once per turn, ids reused across turns get their own identity, the record is the same',
    async (mode) => {
      const harness = await CLIENTS[name](mode);
      const store = new SqliteRunStore(join(dir, 'runs.db'));
      try {
        const runner = harness.client.bindTools(GetWeather, Charge);
        const options = { store, runId: `matrix-${mode}` };
        let result: LlmAgentRunResult;
        const deltas: string[] = [];
        if (mode === 'complete') {
          result = await runner.complete('Weather in Oslo and Rome, and charge 500.', options);
        } else {
          const stream = runner.stream('Weather in Oslo and Rome, and charge 500.', options);
          let finished: LlmAgentRunResult | undefined;
          for await (const event of stream) {
            if (event.type === 'tool_call_delta') deltas.push(event.argumentsDelta);
            if (event.type === 'run_finished') finished = event.result;
          }
          if (finished === undefined) throw new Error('the stream ended without run_finished');
          result = finished;
        }

        expect(result.stopReason).toBe('end_turn');
        expect(result.text).toBe(TURNS[2].text);
        expect(result.steps).toBe(3);
        expect(
          result.toolCalls.map((call) => [call.turn, call.callId, call.toolName, call.arguments, call.outcome.ok]),
        ).toEqual([
          [1, 'call_0', 'GetWeather', { city: 'Oslo' }, true],
          [1, 'call_1', 'Charge', { cents: 500 }, true],
          [2, 'call_0', 'GetWeather', { city: 'Rome' }, true],
        ]);
        expect(result.toolCalls[2].content).toContain('Rome');
        expect(new Set(result.toolCalls.map((call) => call.idempotencyKey)).size).toBe(3);
        expect(charges).toEqual([500]);
        if (mode === 'stream') expect(deltas.join('')).toContain('"Rome"');

        const record = await store.loadRun(options.runId);
        expect(record?.status).toBe('completed');
        expect(record?.toolCalls.map((call) => [call.turn, call.callId, call.outcome?.ok])).toEqual([
          [1, 'call_0', true],
          [1, 'call_1', true],
          [2, 'call_0', true],
        ]);
        expect(record?.messages.filter((message) => message.role === 'tool').map((message) => message.content)).toEqual(
          result.toolCalls.map((call) => call.content),
        );
      } finally {
        await store.close();
        await harness.close();
      }
    },
  );
});
