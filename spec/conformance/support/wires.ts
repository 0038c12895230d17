import Anthropic from '@anthropic-ai/sdk';
import { createOpenAI } from '@ai-sdk/openai';
import OpenAI from 'openai';
import { ScriptedModelClient } from '../../../lib';
import type { ScriptedReply, ModelClient, ChatMessage } from '../../../lib';
import { AiSdkModelClient } from '../../../lib/model/ai-sdk';
import { AnthropicModelClient } from '../../../lib/model/anthropic';
import { OpenAIModelClient } from '../../../lib/model/openai';
import type { JsonObject } from '../../../lib/outcome/json-value';
import { messageBody, MessagesApiServer, startMessagesApiServer } from '../../support/messages-api-server';
import { OpenAIApiServer, startOpenAIApiServer } from '../../support/openai-api-server';
import { messageStreamEvents } from '../../support/messages-api-sse';
import {
  chatChunks,
  chatReply,
  chatStreamReply,
  responsesEvents,
  responsesReply,
  responsesStreamReply,
  ScriptedAnswer,
} from '../../support/openai-api-fixtures';
import { transcriptViolations, WireFormat } from './wire-rules';

/** The model clients of the matrix: the scripted one, and the real SDK clients against the local servers. */
export type ClientKind = 'scripted' | 'anthropic' | 'openai-chat' | 'openai-responses' | 'ai-sdk';

/** Every client kind, in the order the matrix lists them. */
export const CLIENT_KINDS: readonly ClientKind[] = [
  'scripted',
  'anthropic',
  'openai-chat',
  'openai-responses',
  'ai-sdk',
];

/** The clients that speak a provider's wire format over HTTP. */
export const WIRE_CLIENT_KINDS: readonly ClientKind[] = ['anthropic', 'openai-chat', 'openai-responses', 'ai-sdk'];

/** A tool call a scripted answer asks for. */
export interface AnswerCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: JsonObject;
}

/** What the model answers next: tool calls, or text. */
export interface Answer {
  readonly calls?: readonly AnswerCall[];
  readonly text?: string;
}

/** How the answer is sent: whole (`complete`, `resume`) or as a stream (`stream`, `resumeStream`). */
export type Delivery = 'json' | 'stream';

/** A tool result as it crossed the wire, read back from the request body. */
export interface WireToolResult {
  readonly callId: string;
  /** The result's text (blocks joined). */
  readonly content: string;
  /** The provider's error flag, when its format has one. */
  readonly isError?: boolean;
}

/** One client of the matrix, with the scripted answers it gets and the requests it sent. */
export interface Wire {
  readonly kind: ClientKind;
  /** A fresh model client (as another process would build it). */
  client(): ModelClient;
  /** Queues the next answer. */
  answer(answer: Answer, delivery: Delivery): void;
  /** Queues an answer streamed up to its complete tool-call deltas, whose connection is then cut. */
  answerCutAfterToolDeltas(answer: Answer): void;
  /** Queues a failure of the next request (a 500 no SDK retries). */
  failNext(): void;
  /** Requests sent since the wire was made. */
  requestCount(): number;
  /** The tool results the request at `index` (default the last) carried. */
  toolResults(index?: number): WireToolResult[];
  /** Every breach of the provider's transcript rules in the requests sent since the wire was made. */
  violations(): string[];
}

const argumentsText = (call: AnswerCall): string => JSON.stringify(call.arguments);

function openAiAnswer(answer: Answer): ScriptedAnswer {
  return {
    ...(answer.text !== undefined ? { text: [answer.text] } : {}),
    ...(answer.calls !== undefined
      ? {
          calls: answer.calls.map((call) => ({
            id: call.id,
            name: call.name,
            pieces: splitInThree(argumentsText(call)),
          })),
        }
      : {}),
  };
}

function splitInThree(text: string): string[] {
  const third = Math.max(1, Math.ceil(text.length / 3));
  const pieces: string[] = [];
  for (let at = 0; at < text.length; at += third) pieces.push(text.slice(at, at + third));
  return pieces;
}

function anthropicBody(answer: Answer): Record<string, unknown> {
  const content: unknown[] = [];
  if (answer.text !== undefined) content.push({ type: 'text', text: answer.text });
  for (const call of answer.calls ?? [])
    content.push({ type: 'tool_use', id: call.id, name: call.name, input: call.arguments });
  return messageBody({
    content,
    stop_reason: (answer.calls ?? []).length > 0 ? 'tool_use' : 'end_turn',
    usage: { input_tokens: 10, output_tokens: 5 },
  });
}

const text = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content.map((block: { text?: string }) => block.text ?? '').join('')
      : JSON.stringify(content);

/** Reads the tool results of one request body in `format`. */
function resultsOf(format: WireFormat, body: any): WireToolResult[] {
  if (format === 'anthropic') {
    const last = body.messages.at(-1);
    if (!Array.isArray(last?.content)) return [];
    return last.content
      .filter((block: any) => block.type === 'tool_result')
      .map((block: any) => ({ callId: block.tool_use_id, content: text(block.content), isError: block.is_error }));
  }
  if (format === 'responses') {
    const input: any[] = body.input;
    const end = input.findLastIndex((item) => item.type === 'function_call_output') + 1;
    let start = end;
    while (start > 0 && input[start - 1].type === 'function_call_output') start--;
    return input.slice(start, end).map((item: any) => ({ callId: item.call_id, content: text(item.output) }));
  }
  const messages: any[] = format === 'scripted' ? body : body.messages;
  let end = messages.length;
  while (end > 0 && messages[end - 1].role !== 'tool') end--;
  let start = end;
  while (start > 0 && messages[start - 1].role === 'tool') start--;
  return messages.slice(start, end).map((message: any) => ({
    callId: format === 'scripted' ? message.toolCallId : message.tool_call_id,
    content: text(message.content),
    ...(format === 'scripted' ? { isError: message.isError } : {}),
  }));
}

/** A wire over the scripted client: answers come from a queue, requests are the messages it was given. */
function scriptedWire(): Wire {
  const queue: (ScriptedReply | 'fail')[] = [];
  const sent: (readonly ChatMessage[])[] = [];
  const next = (messages: readonly ChatMessage[]): ScriptedReply => {
    sent.push(messages);
    const reply = queue.shift();
    if (reply === undefined) throw new Error('scripted wire: no answer queued');
    if (reply === 'fail') throw new Error('scripted wire: the model failed');
    return reply;
  };
  return {
    kind: 'scripted',
    client: () => new ScriptedModelClient([next], { whenExhausted: 'repeat' }),
    answer: (answer) =>
      void queue.push({
        ...(answer.text !== undefined ? { text: answer.text } : {}),
        ...(answer.calls !== undefined ? { toolCalls: answer.calls } : {}),
      }),
    answerCutAfterToolDeltas: () => {
      throw new Error('the scripted client has no connection to cut');
    },
    failNext: () => void queue.push('fail'),
    requestCount: () => sent.length,
    toolResults: (index = -1) => resultsOf('scripted', sent.at(index)),
    violations: () => sent.flatMap((messages, at) => transcriptViolations('scripted', messages, at)),
  };
}

/** The local stand-ins one HTTP wire talks to. */
interface WireServers {
  readonly openai: OpenAIApiServer;
  readonly anthropic: MessagesApiServer;
}

/**
 * For a spec file: `wire(kind)` makes a wire of that client kind; an HTTP one gets its own local server (so a
 * failed scenario's unused replies never reach the next), closed after the test.
 */
export function useWires(): (kind: ClientKind) => Promise<Wire> {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((server) => server.close()));
  });
  return async (kind) => {
    if (kind === 'scripted') return scriptedWire();
    const server = kind === 'anthropic' ? await startMessagesApiServer() : await startOpenAIApiServer();
    open.push(server);
    const servers = (kind === 'anthropic'
      ? { anthropic: server, openai: undefined }
      : { openai: server, anthropic: undefined }) as unknown as WireServers;
    return httpWire(kind, servers);
  };
}

function httpWire(kind: ClientKind, servers: WireServers): Wire {
  const format: WireFormat = kind === 'anthropic' ? 'anthropic' : kind === 'openai-responses' ? 'responses' : 'chat';
  const server = kind === 'anthropic' ? servers.anthropic : servers.openai;
  const bodies = (): any[] => server.requests.map((request) => request.body);
  const client = (): ModelClient => {
    if (kind === 'anthropic')
      return new AnthropicModelClient({
        client: new Anthropic({ apiKey: 'test-key', baseURL: servers.anthropic.baseURL, maxRetries: 0 }),
      });
    if (kind === 'ai-sdk')
      return new AiSdkModelClient(
        createOpenAI({ apiKey: 'test-key', baseURL: servers.openai.baseURL }).chat('gpt-test'),
      );
    return new OpenAIModelClient({
      client: new OpenAI({ apiKey: 'test-key', baseURL: servers.openai.baseURL, maxRetries: 0 }),
      api: kind === 'openai-chat' ? 'chat' : 'responses',
    });
  };
  const answer = (scripted: Answer, delivery: Delivery): void => {
    if (kind === 'anthropic') servers.anthropic.enqueue({ kind: 'json', body: anthropicBody(scripted) });
    else if (format === 'responses')
      servers.openai.enqueue(
        delivery === 'json' ? responsesReply(openAiAnswer(scripted)) : responsesStreamReply(openAiAnswer(scripted)),
      );
    else
      servers.openai.enqueue(
        delivery === 'json' ? chatReply(openAiAnswer(scripted)) : chatStreamReply(openAiAnswer(scripted)),
      );
  };
  const answerCutAfterToolDeltas = (scripted: Answer): void => {
    if (kind === 'anthropic') {
      const body = anthropicBody(scripted);
      servers.anthropic.enqueue({ kind: 'sse', body, events: messageStreamEvents(body).length - 2, then: 'cut' });
    } else if (format === 'responses') {
      const events = responsesEvents(openAiAnswer(scripted)).filter(
        (event: any) => event.type !== 'response.completed' && event.type !== 'response.output_item.done',
      );
      servers.openai.enqueue({ kind: 'sse', events, named: true, end: 'cut' });
    } else {
      const events = chatChunks(openAiAnswer(scripted)).filter(
        (chunk: any) => chunk.choices.length > 0 && chunk.choices[0].finish_reason === null,
      );
      servers.openai.enqueue({ kind: 'sse', events, end: 'cut' });
    }
  };
  const failNext = (): void => {
    if (kind === 'anthropic')
      servers.anthropic.enqueue({ kind: 'error', status: 500, type: 'api_error', message: 'the model failed' });
    else servers.openai.enqueue({ kind: 'error', status: 500, message: 'the model failed', type: 'server_error' });
  };
  return {
    kind,
    client,
    answer,
    answerCutAfterToolDeltas,
    failNext,
    requestCount: () => bodies().length,
    toolResults: (index = -1) => resultsOf(format, bodies().at(index)),
    violations: () => bodies().flatMap((body, at) => transcriptViolations(format, body, at)),
  };
}
