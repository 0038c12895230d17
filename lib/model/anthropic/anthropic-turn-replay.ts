import type Anthropic from '@anthropic-ai/sdk';
import { isDeepStrictEqual } from 'node:util';
import { AssistantChatMessage, ModelToolCall, ProviderContent } from '../model-types';

interface ReplayEntry {
  readonly text: string;
  readonly toolUseIds: readonly string[];
  readonly content: readonly Anthropic.Messages.ContentBlockParam[];
}

/** How many assistant turns a client remembers by tool-use id before forgetting the oldest. */
export const DEFAULT_ANTHROPIC_TURN_REPLAY_CAPACITY = 256;

/**
 * Remembers the exact content blocks of assistant turns whose wuwe form loses something, so the turn
 * can be sent back to the API unchanged.
 *
 * wuwe's {@link ChatMessage} keeps an assistant turn's text and tool calls only. The Messages API also
 * returns blocks that must be sent back as they came: `thinking` and `redacted_thinking` blocks before
 * a `tool_use` (required when the model thinks), and server tool blocks of a `pause_turn` response.
 * When an assistant message is mapped back, it is replayed from memory if it is the same turn: its
 * tool-call array is the very one the response carried, or its text and tool-call ids are identical.
 * Otherwise it is rebuilt from text and tool calls.
 *
 * Memory is per client and process-local: the identity map is weak, the id map holds the most recent
 * {@link DEFAULT_ANTHROPIC_TURN_REPLAY_CAPACITY} turns.
 */
export class AnthropicTurnReplay {
  private readonly byToolCalls = new WeakMap<readonly ModelToolCall[], ReplayEntry>();
  private readonly byToolUseIds = new Map<string, ReplayEntry>();

  constructor(private readonly capacity: number = DEFAULT_ANTHROPIC_TURN_REPLAY_CAPACITY) {}

  /**
   * Records a response's content, keyed by the tool-call array handed to the caller.
   * Only turns holding blocks other than `text` and `tool_use` are recorded: others rebuild exactly.
   */
  remember(
    toolCalls: readonly ModelToolCall[],
    text: string,
    content: readonly Anthropic.Messages.ContentBlock[],
  ): void {
    if (content.every((block) => block.type === 'text' || block.type === 'tool_use')) return;
    const entry: ReplayEntry = {
      text,
      toolUseIds: toolCalls.map((call) => call.id),
      content,
    };
    this.byToolCalls.set(toolCalls, entry);
    if (entry.toolUseIds.length === 0) return;
    const key = idsKey(entry.toolUseIds);
    this.byToolUseIds.delete(key);
    this.byToolUseIds.set(key, entry);
    while (this.byToolUseIds.size > this.capacity) {
      const oldest = this.byToolUseIds.keys().next().value as string;
      this.byToolUseIds.delete(oldest);
    }
  }

  /** The remembered content of `message`, when it is a remembered turn; otherwise `undefined`. */
  find(message: AssistantChatMessage): readonly Anthropic.Messages.ContentBlockParam[] | undefined {
    const ids = message.toolCalls.map((call) => call.id);
    const entry =
      this.byToolCalls.get(message.toolCalls) ?? (ids.length > 0 ? this.byToolUseIds.get(idsKey(ids)) : undefined);
    if (entry === undefined || entry.text !== message.content || idsKey(entry.toolUseIds) !== idsKey(ids)) {
      return undefined;
    }
    return entry.content;
  }
}

function idsKey(ids: readonly string[]): string {
  return JSON.stringify(ids);
}

/** The {@link ProviderContent} of an Anthropic response, when its content holds blocks that rebuild inexactly. */
export function anthropicProviderContent(
  content: readonly Anthropic.Messages.ContentBlock[],
): ProviderContent | undefined {
  if (content.every((block) => block.type === 'text' || block.type === 'tool_use')) return undefined;
  return { provider: 'anthropic', blocks: content as unknown as ProviderContent['blocks'] };
}

/**
 * The Anthropic content stored with an assistant message (a durable run resumed in another process), when it
 * is this turn's: written by this client, its text blocks joined equal to the message's `content`, and its
 * `tool_use` blocks exactly the message's tool calls (ids, names and inputs, in order). Content that says
 * something else than the message it came with is never sent: the message is rebuilt from its own text and calls.
 */
export function storedAnthropicContent(
  message: AssistantChatMessage,
): readonly Anthropic.Messages.ContentBlockParam[] | undefined {
  const stored = message.providerContent;
  if (stored?.provider !== 'anthropic' || !Array.isArray(stored.blocks)) return undefined;
  const blocks = stored.blocks as unknown as Anthropic.Messages.ContentBlockParam[];
  if (!blocks.every((block) => typeof block === 'object' && block !== null && !Array.isArray(block))) return undefined;
  const text = blocks.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
  const uses = blocks.flatMap((block) => (block.type === 'tool_use' ? [block] : []));
  const calls = message.toolCalls;
  if (text !== message.content || uses.length !== calls.length) return undefined;
  return uses.every(
    (use, index) =>
      use.id === calls[index].id &&
      use.name === calls[index].name &&
      isDeepStrictEqual(use.input, argumentsOf(calls[index])),
  )
    ? blocks
    : undefined;
}

/** A call's arguments as an object (its JSON text parsed; `undefined` when it does not parse). */
function argumentsOf(call: ModelToolCall): unknown {
  if (typeof call.arguments !== 'string') return call.arguments;
  try {
    return JSON.parse(call.arguments) as unknown;
  } catch {
    return undefined;
  }
}
