import type { AssistantChatMessage, ChatMessage, ToolChatMessage, UserContentPart } from '../model/model-types';
import type { JsonObject } from '../outcome/json-value';
import { inputMessages } from '../runner/run-input';
import { LlmAgentError } from '../runner/runner-error';
import { isPlainObject, own, PlainObject, toolNameOfPart } from './ui-message-parts';

/** Parts that carry nothing for the model: step boundaries, sources, the app's own `data-*` parts. */
const IGNORED_PARTS = new Set(['step-start', 'source-url', 'source-document']);

/**
 * The wuwe input (a `ChatMessage` list for `runner.stream()` / `complete()`) of `useChat`'s UI messages, under the
 * rules of caller input: the client's tool parts are history only (a part with an output becomes the call and its
 * Tool message; one without stays a call without a result, which the runner answers `not_executed` and never
 * runs); reasoning and `data-*` parts are dropped; files become image or document parts. The result is checked as
 * every caller's input is (roles, tool calls, how they fit together, ending with a user message).
 *
 * An approval response is not input: decide it with `decideUIApproval()` first.
 *
 * @throws {@link wuwe!LlmAgentError} `invalid_input` for a message or part of the wrong shape (a `system` message
 *   included: the system prompt is the host's), before anything runs.
 */
export function fromUIMessages(messages: unknown): ChatMessage[] {
  if (!Array.isArray(messages) || messages.length === 0) throw invalid('the UI messages must be a non-empty list');
  const chat = (messages as unknown[]).flatMap((message, index) => {
    try {
      return chatMessagesOf(message);
    } catch (error) {
      if (LlmAgentError.isInstance(error)) throw invalid(`UI message ${index}: ${error.message}`);
      throw error;
    }
  });
  if (chat.length === 0) throw invalid('the UI messages hold no message for the model');
  return inputMessages(chat);
}

function chatMessagesOf(message: unknown): ChatMessage[] {
  if (!isPlainObject(message)) throw invalid('a UI message must be an object');
  const role = own(message, 'role');
  const parts = own(message, 'parts');
  if (!Array.isArray(parts)) throw invalid('a UI message needs a `parts` list');
  for (const part of parts) if (!isPlainObject(part)) throw invalid('a part must be an object');
  if (role === 'user') return [{ role: 'user', content: userContentOf(parts as PlainObject[]) }];
  if (role === 'assistant') return assistantMessagesOf(parts as PlainObject[]);
  if (role === 'system') throw invalid("a client may not send system messages: the system prompt is the host's");
  throw invalid(`unknown role ${JSON.stringify(role)}`);
}

function userContentOf(parts: readonly PlainObject[]): string | UserContentPart[] {
  const content: UserContentPart[] = [];
  for (const part of parts) {
    const type = own(part, 'type');
    if (type === 'text') content.push({ type: 'text', text: textOf(part, 'text') });
    else if (type === 'file') content.push(filePartOf(part));
    else if (!isIgnored(type)) throw invalid(`a user message cannot hold a ${JSON.stringify(type)} part`);
  }
  if (content.every((part) => part.type === 'text'))
    return content.map((part) => (part as { text: string }).text).join('\n');
  return content;
}

/** A file part: a `data:` URL (inline, base64) or an `http(s)` URL; images as images, anything else as a document. */
function filePartOf(part: PlainObject): UserContentPart {
  const mediaType = textOf(part, 'mediaType');
  const url = textOf(part, 'url');
  const filename = own(part, 'filename');
  const title = typeof filename === 'string' ? { title: filename } : {};
  const image = mediaType.startsWith('image/');
  const inline = /^data:([^;,]*)(;base64)?,(.*)$/s.exec(url);
  if (inline !== null) {
    if (inline[2] === undefined) throw invalid("a file part's `data:` URL must be base64");
    const data = inline[3];
    return image ? { type: 'image', mediaType, data } : { type: 'document', mediaType, data, ...title };
  }
  if (!/^https?:\/\//i.test(url)) throw invalid('a file part needs a `data:` or `http(s):` URL');
  return image ? { type: 'image', url } : { type: 'document', url, ...title };
}

/** An assistant UI message: an assistant message per step, each followed by the Tool messages of its answered calls. */
function assistantMessagesOf(parts: readonly PlainObject[]): ChatMessage[] {
  const messages: ChatMessage[] = [];
  let text: string[] = [];
  let calls: AssistantChatMessage['toolCalls'][number][] = [];
  let results: ToolChatMessage[] = [];
  const flush = (): void => {
    if (text.length > 0 || calls.length > 0)
      messages.push({ role: 'assistant', content: text.join(''), toolCalls: calls }, ...results);
    text = [];
    calls = [];
    results = [];
  };
  for (const part of parts) {
    const type = own(part, 'type');
    const toolName = toolNameOfPart(part);
    if (type === 'step-start') flush();
    else if (type === 'text') text.push(textOf(part, 'text'));
    else if (toolName !== undefined) {
      const { call, result } = toolPartOf(part, toolName);
      calls.push(call);
      if (result !== undefined) results.push(result);
    } else if (type !== 'reasoning' && !isIgnored(type))
      throw invalid(`an assistant message cannot hold a ${JSON.stringify(type)} part`);
  }
  flush();
  return messages;
}

/** A client's tool part: a call (history, never run) and its Tool message when the part has an output. */
function toolPartOf(
  part: PlainObject,
  toolName: string,
): { call: AssistantChatMessage['toolCalls'][number]; result?: ToolChatMessage } {
  const id = own(part, 'toolCallId');
  if (typeof id !== 'string' || id.length === 0) throw invalid('a tool part needs a non-empty `toolCallId`');
  const state = own(part, 'state');
  const call = { id, name: toolName, arguments: argumentsOf(own(part, 'input'), state) };
  const answer = (content: string, isError: boolean): ToolChatMessage => ({
    role: 'tool',
    toolCallId: id,
    toolName,
    content,
    isError,
  });
  switch (state) {
    case 'input-streaming':
    case 'input-available':
    case 'approval-requested':
    case 'approval-responded':
      return { call };
    case 'output-available': {
      const output = own(part, 'output');
      return { call, result: answer(typeof output === 'string' ? output : jsonText(output), false) };
    }
    case 'output-error':
      return { call, result: answer(textOf(part, 'errorText'), true) };
    case 'output-denied':
      return { call, result: answer(`the call to '${toolName}' was not approved`, true) };
    default:
      throw invalid(`tool part '${id}' has an unknown state ${JSON.stringify(state)}`);
  }
}

/** The arguments of a tool part: its input object; none yet (streaming, or an input error) is an empty object. */
function argumentsOf(input: unknown, state: unknown): JsonObject {
  if (input === undefined && (state === 'input-streaming' || state === 'output-error')) return {};
  if (!isPlainObject(input)) throw invalid("a tool part's `input` must be an object");
  return input as JsonObject;
}

function jsonText(value: unknown): string {
  const text = JSON.stringify(value);
  if (typeof text !== 'string') throw invalid("a tool part's `output` has no JSON form");
  return text;
}

function textOf(part: PlainObject, key: string): string {
  const value = own(part, key);
  if (typeof value !== 'string') throw invalid(`a ${String(own(part, 'type'))} part needs \`${key}\` as text`);
  return value;
}

function isIgnored(type: unknown): boolean {
  return typeof type === 'string' && (IGNORED_PARTS.has(type) || type.startsWith('data-'));
}

function invalid(message: string): LlmAgentError {
  return new LlmAgentError('invalid_input', message);
}
