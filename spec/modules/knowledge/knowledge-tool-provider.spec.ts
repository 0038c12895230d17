import { KnowledgeIndex } from '../../../lib/modules/knowledge/knowledge-index';
import { KnowledgeIndexError } from '../../../lib/modules/knowledge/knowledge-index-error';
import { KnowledgeToolProvider } from '../../../lib/modules/knowledge/knowledge-tool-provider';
import { compileOutputValidator } from '../../../lib/validation/schema-validator';
import { invocationFor } from '../memory/invocation-fixture';

function providerWithDocs(): KnowledgeToolProvider {
  const index = new KnowledgeIndex();
  index.addDocuments([
    {
      source: 'ops/backup.md',
      text: '# Backups\n\n## Schedule\n\nBackups run nightly at two.\n\n## Restore\n\nRestore from the latest snapshot.',
    },
    { source: 'faq.txt', text: 'Snapshots are kept for thirty days.' },
  ]);
  return new KnowledgeToolProvider({ index, defaultLimit: 2, maxLimit: 3 });
}

describe('KnowledgeToolProvider', () => {
  it('describes knowledge_search as a read-only idempotent tool with a closed schema and no capabilities', () => {
    const provider = providerWithDocs();
    const [descriptor] = provider.listTools();
    expect(descriptor).toMatchObject({
      name: 'knowledge_search',
      sideEffect: 'read',
      idempotency: 'idempotent',
      approval: 'never',
    });
    expect(descriptor.inputSchema).toMatchObject({ type: 'object', required: ['query'], additionalProperties: false });
    expect(provider.capabilities('knowledge_search')).toEqual({
      invocationContext: false,
      idempotencyKey: false,
      heartbeat: false,
      compensation: false,
    });
  });

  it('answers ranked passages with sources, matching its output schema', () => {
    const provider = providerWithDocs();
    const outcome = provider.invokeTool(invocationFor(provider, 'knowledge_search', { query: 'restore snapshot' }));
    expect(outcome.ok).toBe(true);
    const data = outcome.data as {
      query: string;
      hits: { source: string; heading: string; rank: number; snippet: string }[];
    };
    expect(data.hits.map((hit) => [hit.rank, hit.source, hit.heading])).toEqual([
      [1, 'ops/backup.md', 'Backups > Restore'],
      [2, 'faq.txt', ''],
    ]);
    expect(data.hits[0].snippet).toContain('**Restore**');
    expect(compileOutputValidator(provider.listTools()[0].outputSchema!)(outcome.data)).toEqual([]);
  });

  it('accepts the legacy invoke form', () => {
    const provider = providerWithDocs();
    expect(provider.invoke('knowledge_search', { query: 'nightly' }).data).toMatchObject({
      hits: [{ heading: 'Backups > Schedule' }],
    });
  });

  it('applies the default limit and refuses a limit above the maximum', () => {
    const provider = providerWithDocs();
    const many = provider.invokeTool(
      invocationFor(provider, 'knowledge_search', { query: 'backups restore snapshots nightly' }),
    );
    expect((many.data as { hits: unknown[] }).hits).toHaveLength(2);
    const refused = provider.invokeTool(invocationFor(provider, 'knowledge_search', { query: 'backups', limit: 50 }));
    expect(refused.error).toMatchObject({ code: 'invalid_arguments', category: 'validation', retryable: false });
    expect(refused.error?.details).toEqual({ issues: [expect.objectContaining({ pointer: '/limit' })] });
  });

  it.each([{}, { query: 5 }, { query: 'x', extra: true }])(
    'refuses bad arguments %j with invalid_arguments',
    (args) => {
      const provider = providerWithDocs();
      const outcome = provider.invokeTool(invocationFor(provider, 'knowledge_search', args as never));
      expect(outcome.ok).toBe(false);
      expect(outcome.error?.code).toBe('invalid_arguments');
    },
  );

  it.each(['"unbalanced', 'NEAR(', '*', 'snapshot" NOT "x'])(
    'turns the hostile query %s into an outcome, never a raw SQLite error',
    (query) => {
      const provider = providerWithDocs();
      const outcome = provider.invokeTool(invocationFor(provider, 'knowledge_search', { query }));
      if (outcome.ok) expect(Array.isArray((outcome.data as { hits: unknown[] }).hits)).toBe(true);
      else expect(outcome.error).toMatchObject({ code: 'invalid_arguments', category: 'validation' });
    },
  );

  it('answers an unknown tool name with unknown_tool and rejects impossible limits at construction', () => {
    const provider = providerWithDocs();
    const invocation = { ...invocationFor(provider, 'knowledge_search', { query: 'x' }), toolName: 'nope' };
    expect(provider.invokeTool(invocation).error?.code).toBe('unknown_tool');
    expect(() => new KnowledgeToolProvider({ defaultLimit: 9, maxLimit: 3 })).toThrow(KnowledgeIndexError);
  });
});
