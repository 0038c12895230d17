import { descriptorFromLlmTool } from '../../contract/compile-descriptor';
import { ToolDescriptor } from '../../contract/tool-descriptor';

/** Names of the memory tools. */
export const MEMORY_TOOL_NAMES = Object.freeze({
  remember: 'memory_remember',
  recall: 'memory_recall',
  forget: 'memory_forget',
});

/** Pattern of a note key. */
export const NOTE_KEY_PATTERN = '^[A-Za-z0-9][A-Za-z0-9_.:/-]{0,127}$';

/** Limits the memory tool schemas are built with. */
export interface MemoryToolLimits {
  readonly maxTextChars: number;
  readonly maxTags: number;
  readonly defaultLimit: number;
  readonly maxLimit: number;
}

const KEY = {
  type: 'string',
  pattern: NOTE_KEY_PATTERN,
  description: 'Key of the note: letters, digits and _ . : / -, up to 128 characters.',
};
const TAG = { type: 'string', minLength: 1, maxLength: 64 };

/**
 * `memory_remember`: writes a note. Idempotent with the framework's idempotency key: a note without
 * a key is stored under a key derived from it, so a retried call updates the same note.
 */
export function rememberDescriptor(limits: MemoryToolLimits): ToolDescriptor {
  return descriptorFromLlmTool(
    {
      name: MEMORY_TOOL_NAMES.remember,
      description:
        'Remember a note for later runs. Give a key to update the same note later; without a key a new note is created. Returns the key.',
      inputSchema: {
        type: 'object',
        properties: {
          key: KEY,
          text: { type: 'string', minLength: 1, maxLength: limits.maxTextChars, description: 'What to remember.' },
          tags: { type: 'array', items: TAG, maxItems: limits.maxTags, description: 'Labels to filter recall by.' },
        },
        required: ['text'],
        additionalProperties: false,
      },
    },
    {
      sideEffect: 'write',
      idempotency: 'idempotent_with_key',
      approval: 'never',
      timeoutMs: 10_000,
      retry: { maxAttempts: 2 },
      outputSchema: {
        type: 'object',
        properties: {
          key: { type: 'string' },
          version: { type: 'integer' },
          status: { type: 'string', enum: ['created', 'updated', 'unchanged'] },
        },
        required: ['key', 'version', 'status'],
        additionalProperties: false,
      },
    },
  );
}

/** `memory_recall`: a read-only, idempotent full-text search over the notes. */
export function recallDescriptor(limits: MemoryToolLimits): ToolDescriptor {
  return descriptorFromLlmTool(
    {
      name: MEMORY_TOOL_NAMES.recall,
      description:
        'Recall remembered notes by full-text search, best matches first. Use plain words, not search syntax.',
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', minLength: 1, maxLength: 1000, description: 'Words to look for.' },
          limit: {
            type: 'integer',
            minimum: 1,
            maximum: limits.maxLimit,
            description: `Most notes to return (default ${limits.defaultLimit}).`,
          },
          tags: {
            type: 'array',
            items: TAG,
            maxItems: limits.maxTags,
            description: 'Only notes carrying all of these tags.',
          },
        },
        required: ['query'],
        additionalProperties: false,
      },
    },
    {
      sideEffect: 'read',
      idempotency: 'idempotent',
      approval: 'never',
      timeoutMs: 10_000,
      retry: { maxAttempts: 2 },
      outputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string' },
          notes: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                key: { type: 'string' },
                text: { type: 'string' },
                tags: { type: 'array', items: { type: 'string' } },
                score: { type: 'number' },
                updatedAt: { type: 'string' },
              },
              required: ['key', 'text', 'tags', 'score', 'updatedAt'],
              additionalProperties: false,
            },
          },
        },
        required: ['query', 'notes'],
        additionalProperties: false,
      },
    },
  );
}

/**
 * `memory_forget`: deletes a note. Destructive (so approved under the default `when_destructive` mode) and idempotent.
 */
export function forgetDescriptor(): ToolDescriptor {
  return descriptorFromLlmTool(
    {
      name: MEMORY_TOOL_NAMES.forget,
      description: 'Forget (delete) the note stored under a key.',
      inputSchema: { type: 'object', properties: { key: KEY }, required: ['key'], additionalProperties: false },
    },
    {
      sideEffect: 'destructive',
      idempotency: 'idempotent',
      timeoutMs: 10_000,
      outputSchema: {
        type: 'object',
        properties: { key: { type: 'string' }, forgotten: { type: 'boolean' } },
        required: ['key', 'forgotten'],
        additionalProperties: false,
      },
    },
  );
}
