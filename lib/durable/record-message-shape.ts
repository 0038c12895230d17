import { toolMessagePartsProblem } from '../model/tool-message-parts';
import { userContentProblem } from '../model/user-content';

/**
 * The problem with one message of a stored or imported record, or `undefined`: an object with a known role, a user
 * message's content as the runner admits it (`userContentProblem`), an assistant message's `content` text and
 * `toolCalls` list (each with string `id` and `name` and `arguments` as text or an object), a Tool message's
 * `toolCallId`, `toolName`, `content` text, `isError` flag and well-formed `parts` (`toolMessagePartsProblem`).
 * These are the fields the chain hashes and the runner reads; nothing else of a message is interpreted.
 */
export function messageShapeProblem(message: unknown): string | undefined {
  if (!isObject(message)) return 'not an object';
  const { role, content } = message;
  switch (role) {
    case 'user':
      return userContentProblem(content);
    case 'assistant':
      return assistantProblem(message);
    case 'tool': {
      const { toolCallId, toolName, isError } = message;
      if (typeof toolCallId !== 'string' || typeof toolName !== 'string')
        return 'a tool message needs `toolCallId` and `toolName` strings';
      if (typeof content !== 'string') return 'a tool message needs `content` text';
      if (typeof isError !== 'boolean') return 'a tool message needs an `isError` flag';
      return toolMessagePartsProblem(message.parts);
    }
    default:
      return `unknown role ${describe(role)} (user, assistant or tool)`;
  }
}

function assistantProblem(message: Record<string, unknown>): string | undefined {
  const { content, toolCalls, providerContent, usage } = message;
  if (typeof content !== 'string') return 'an assistant message needs `content` text';
  if (!Array.isArray(toolCalls)) return 'an assistant message needs a `toolCalls` list';
  for (const [index, call] of (toolCalls as unknown[]).entries()) {
    if (!isObject(call) || typeof call.id !== 'string' || typeof call.name !== 'string')
      return `tool call ${index} needs \`id\` and \`name\` strings`;
    const args = call.arguments;
    if (typeof args !== 'string' && !isObject(args))
      return `tool call ${index} needs \`arguments\` as JSON text or an object`;
  }
  if (providerContent !== undefined) {
    if (!isObject(providerContent) || typeof providerContent.provider !== 'string')
      return '`providerContent` must be an object with a `provider` string';
    if (!Array.isArray(providerContent.blocks)) return '`providerContent` needs a `blocks` list';
  }
  if (usage !== undefined && !isObject(usage)) return '`usage` must be an object';
  return undefined;
}

/** True for a non-null object that is not an array. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A short description of `value` for a message: a scalar as JSON text (at most 60 characters), else its type. */
export function describe(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object' && value !== null) return 'an object';
  const text =
    typeof value === 'string' || typeof value === 'boolean' || typeof value === 'number'
      ? JSON.stringify(value)
      : String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
