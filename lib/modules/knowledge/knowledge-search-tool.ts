import { descriptorFromLlmTool } from '../../contract/compile-descriptor';
import { ToolDescriptor } from '../../contract/tool-descriptor';

/** Name of the knowledge search tool. */
export const KNOWLEDGE_SEARCH_TOOL = 'knowledge_search';

/** Builds the `knowledge_search` descriptor: a read-only, idempotent search answering at most `maxLimit` passages. */
export function knowledgeSearchDescriptor(
  defaultLimit: number,
  maxLimit: number,
  markers: { readonly open: string; readonly close: string } = { open: '**', close: '**' },
): ToolDescriptor {
  const special = [...new Set([...markers.open, ...markers.close])].join(' ');
  return descriptorFromLlmTool(
    {
      name: KNOWLEDGE_SEARCH_TOOL,
      description:
        'Search the indexed documents with full-text search. Returns the best-matching passages, ranked, each with its source, ' +
        `title and section heading. Matched words are wrapped in ${markers.open} and ${markers.close}; in the text itself, the characters ${special} ` +
        'are escaped with a backslash (as is a backslash before them), so an unescaped marker is always a match. Use plain words, not search syntax.',
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', minLength: 1, maxLength: 1000, description: 'Words to search for.' },
          limit: {
            type: 'integer',
            minimum: 1,
            maximum: maxLimit,
            description: `Most passages to return (default ${defaultLimit}).`,
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
          hits: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                rank: { type: 'integer' },
                score: { type: 'number' },
                source: { type: 'string' },
                title: { type: 'string' },
                heading: { type: 'string' },
                passageIndex: { type: 'integer' },
                snippet: { type: 'string' },
                passage: { type: 'string' },
              },
              required: ['rank', 'score', 'source', 'title', 'heading', 'passageIndex', 'snippet', 'passage'],
              additionalProperties: false,
            },
          },
        },
        required: ['query', 'hits'],
        additionalProperties: false,
      },
    },
  );
}
