import { ChatMessage } from '../model/model-types';
import { toolMessagePartsProblem } from '../model/tool-message-parts';
import { userContentProblem } from '../model/user-content';
import { LlmAgentRunOptions } from './run-options';
import { LlmAgentError } from './runner-error';
import { messagesOfRecord, withoutProviderContent } from './turn-messages';
import { conversationProblem, toolCallProblem } from './input-conversation';
import { withCancelledTurnClosed } from './cancelled-turn';

/**
 * What `complete()` and `stream()` take: a prompt (one user message), or a list of messages (a
 * conversation to go on from, ending with a user message; its user messages may carry images and
 * documents). Its tool calls are history: none is ever run (see `inputMessages`).
 */
export type LlmAgentRunInput = string | readonly ChatMessage[];

/**
 * The messages an input adds to a run, checked: a string is one user message; a list must be
 * non-empty, well formed (roles, user content parts, tool calls: see `toolCallProblem`), fit together
 * (see `conversationProblem`: no Tool message without its call, open calls only in the last assistant
 * message) and end with a user message. Nothing is sent to a model before this passes. The provider
 * content of its assistant messages is dropped (see `withoutCallerProviderContent`).
 *
 * @throws {@link LlmAgentError} `invalid_input`, before anything runs.
 */
export function inputMessages(input: LlmAgentRunInput): ChatMessage[] {
  if (typeof input === 'string') return [{ role: 'user', content: input }];
  if (!Array.isArray(input) || input.length === 0)
    throw invalid('the input must be a prompt or a non-empty list of messages');
  const messages = input as readonly unknown[];
  messages.forEach((message, index) => {
    const problem = messageProblem(message);
    if (problem !== undefined) throw invalid(`message ${index}: ${problem}`);
  });
  const last = input[input.length - 1];
  if (last.role !== 'user') throw invalid(`the last message must be a user message (it is a ${last.role} message)`);
  const problem = conversationProblem(input);
  if (problem !== undefined) throw invalid(problem);
  return withoutCallerProviderContent(input);
}

/**
 * The problem with a message list a `prepareStep` answer sends the model, or `undefined`: a non-empty list of
 * well-formed messages that fit together (see `conversationProblem`), every tool call with its Tool message (the
 * runner answers no call of a list it did not record). @internal
 */
export function preparedMessagesProblem(messages: unknown): string | undefined {
  if (!Array.isArray(messages) || messages.length === 0) return 'a non-empty list of messages is due';
  for (const [index, message] of (messages as readonly unknown[]).entries()) {
    const problem = messageProblem(message);
    if (problem !== undefined) return `message ${index}: ${problem}`;
  }
  const list = messages as readonly ChatMessage[];
  const problem = conversationProblem(list);
  if (problem !== undefined) return problem;
  const answered = new Set(list.flatMap((message) => (message.role === 'tool' ? [message.toolCallId] : [])));
  const open = list.flatMap((message) => (message.role === 'assistant' ? message.toolCalls : []));
  const unanswered = open.filter((call) => !answered.has(call.id)).map((call) => call.id);
  return unanswered.length === 0 ? undefined : `tool calls without a Tool message (${unanswered.join(', ')})`;
}

/**
 * The input without the provider content of its assistant messages: only a model response of a run's own record
 * is replayed to a provider as it came, so a caller's blocks (whose text may differ from `content`) never reach
 * the model. Dropping some emits a `WuweWarning` (`WUWE_PROVIDER_CONTENT_DROPPED`); continue a stored run with
 * `continueFrom` to keep them.
 */
function withoutCallerProviderContent(input: readonly ChatMessage[]): ChatMessage[] {
  const dropped = input.flatMap((message, index) =>
    message.role === 'assistant' && message.providerContent !== undefined ? [index] : [],
  );
  if (dropped.length === 0) return [...input];
  process.emitWarning(
    `the provider content of input message(s) ${dropped.join(', ')} was dropped: only a run's own record replays provider content; continue a stored run with \`continueFrom\` to keep it`,
    { type: 'WuweWarning', code: 'WUWE_PROVIDER_CONTENT_DROPPED' },
  );
  return input.map((message) => (message.role === 'assistant' ? withoutProviderContent(message) : message));
}

/**
 * Checks that a stored conversation can be continued: every tool call of its last assistant turn has
 * its Tool message (a turn left open, say awaiting approval, is continued with `resume()`).
 *
 * @throws {@link LlmAgentError} `run_conflict`.
 */
export function checkContinuable(runId: string, messages: readonly ChatMessage[]): void {
  const answered = new Set(messages.flatMap((message) => (message.role === 'tool' ? [message.toolCallId] : [])));
  const open = messages
    .flatMap((message) => (message.role === 'assistant' ? message.toolCalls : []))
    .filter((call) => !answered.has(call.id));
  if (open.length > 0)
    throw new LlmAgentError(
      'run_conflict',
      `the conversation of run '${runId}' has tool calls without results (${open.map((call) => call.id).join(', ')}); resume() that run instead`,
    );
}

/** What `continuedConversation` gives a run without `continueFrom`. @internal */
export const NOTHING_CONTINUED: Promise<readonly ChatMessage[]> = Promise.resolve(Object.freeze([]));

/**
 * The conversation `options.continueFrom` names: the stored run's messages when there is a `store`,
 * else the `memory`'s; empty without `continueFrom`.
 *
 * @throws {@link LlmAgentError} `invalid_run_options` without a store or memory,
 * `conversation_not_found` for an unknown or empty conversation, `run_conflict` for one with open calls (the
 * last turn of a stored run that was cancelled is closed first: see `withCancelledTurnClosed`).
 */
export async function loadContinuedConversation(options: LlmAgentRunOptions): Promise<readonly ChatMessage[]> {
  const { continueFrom, store, memory } = options;
  if (continueFrom === undefined) return [];
  if (store === undefined && memory === undefined)
    throw new LlmAgentError(
      'invalid_run_options',
      '`continueFrom` needs a `store` or a `memory` to read the conversation from',
    );
  // From a store, as a resume reads them: only its model responses keep their provider content.
  const stored = store !== undefined ? await store.loadRun(continueFrom) : undefined;
  const messages =
    store !== undefined
      ? stored === undefined
        ? undefined
        : withCancelledTurnClosed(stored, messagesOfRecord(stored))
      : await memory!.messages(continueFrom);
  if (messages === undefined || messages.length === 0)
    throw new LlmAgentError('conversation_not_found', `no stored conversation of run '${continueFrom}'`);
  checkContinuable(continueFrom, messages);
  return messages;
}

function messageProblem(message: unknown): string | undefined {
  if (typeof message !== 'object' || message === null) return 'not an object';
  const { role, content } = message as Record<string, unknown>;
  switch (role) {
    case 'user':
      return userContentProblem(content);
    case 'assistant': {
      const { toolCalls } = message as { toolCalls?: unknown };
      if (typeof content !== 'string') return 'an assistant message needs `content` text';
      if (!Array.isArray(toolCalls)) return 'an assistant message needs a `toolCalls` list';
      for (const [index, call] of (toolCalls as unknown[]).entries()) {
        const problem = toolCallProblem(call);
        if (problem !== undefined) return `tool call ${index}: ${problem}`;
      }
      return undefined;
    }
    case 'tool': {
      const { toolCallId, toolName, isError } = message as Record<string, unknown>;
      const ok =
        typeof toolCallId === 'string' &&
        typeof toolName === 'string' &&
        typeof content === 'string' &&
        typeof isError === 'boolean';
      return ok
        ? toolMessagePartsProblem((message as { parts?: unknown }).parts)
        : 'a tool message needs `toolCallId`, `toolName`, `content` and `isError`';
    }
    default:
      return `unknown role ${JSON.stringify(role)} (user, assistant or tool)`;
  }
}

function invalid(message: string): LlmAgentError {
  return new LlmAgentError('invalid_input', message);
}
