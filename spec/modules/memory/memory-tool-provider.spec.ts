import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MemoryModuleError } from '../../../lib/modules/memory/memory-module-error';
import { MemoryToolProvider } from '../../../lib/modules/memory/memory-tool-provider';
import { InMemoryNoteStore, SqliteNoteStore } from '../../../lib/modules/memory/sqlite-note-store';
import { compileOutputValidator } from '../../../lib/validation/schema-validator';
import { JsonObject } from '../../../lib/outcome/json-value';
import { invocationFor } from './invocation-fixture';

function call(provider: MemoryToolProvider, tool: string, args: JsonObject, idempotencyKey?: string) {
  return provider.invokeTool(invocationFor(provider, tool, args, { idempotencyKey }));
}

describe('MemoryToolProvider', () => {
  let directory: string;
  beforeEach(() => {
    directory = mkdtempSync(path.join(tmpdir(), 'wuwe-notes-'));
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('describes honest contracts: remember writes, recall reads, forget is destructive', () => {
    const provider = new MemoryToolProvider();
    const byName = Object.fromEntries(provider.listTools().map((tool) => [tool.name, tool]));
    expect(byName.memory_remember).toMatchObject({ sideEffect: 'write', idempotency: 'idempotent_with_key' });
    expect(byName.memory_recall).toMatchObject({ sideEffect: 'read', idempotency: 'idempotent', approval: 'never' });
    expect(byName.memory_forget).toMatchObject({ sideEffect: 'destructive', approval: 'when_destructive' });
    for (const tool of provider.listTools())
      expect(tool.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
    expect(provider.capabilities('memory_remember').idempotencyKey).toBe(true);
    expect(provider.capabilities('memory_recall')).toEqual({
      invocationContext: false,
      idempotencyKey: false,
      heartbeat: false,
      compensation: false,
    });
    expect(new MemoryToolProvider({ allowForget: false }).listTools().map((tool) => tool.name)).toEqual([
      'memory_remember',
      'memory_recall',
    ]);
  });

  it('recalls notes across provider instances on the same SQLite file, ranked by relevance', async () => {
    const file = path.join(directory, 'agent.db');
    const writerStore = new SqliteNoteStore(file);
    const writer = new MemoryToolProvider({ store: writerStore });
    expect(
      (
        await call(writer, 'memory_remember', {
          key: 'editor',
          text: 'The user prefers the vim editor.',
          tags: ['prefs'],
        })
      ).data,
    ).toEqual({
      key: 'editor',
      version: 1,
      status: 'created',
    });
    await call(writer, 'memory_remember', {
      key: 'lang',
      text: 'The user writes TypeScript and prefers strict mode.',
      tags: ['prefs', 'code'],
    });
    await call(writer, 'memory_remember', { key: 'pet', text: 'The user has a cat named Miso.' });
    writerStore.close();

    const readerStore = new SqliteNoteStore(file);
    const reader = new MemoryToolProvider({ store: readerStore });
    const outcome = await call(reader, 'memory_recall', { query: 'which editor does the user prefer?' });
    const notes = (outcome.data as { notes: { key: string; score: number }[] }).notes;
    expect(notes[0].key).toBe('editor');
    expect(notes.map((note) => note.key)).toContain('lang');
    expect(notes[0].score).toBeGreaterThan(notes[notes.length - 1].score);
    expect(compileOutputValidator(reader.listTools()[1].outputSchema!)(outcome.data)).toEqual([]);

    const tagged = await call(reader, 'memory_recall', { query: 'prefers', tags: ['code'] });
    expect((tagged.data as { notes: { key: string }[] }).notes.map((note) => note.key)).toEqual(['lang']);
    const otherNamespace = new MemoryToolProvider({ store: readerStore, namespace: 'someone-else' });
    expect((await call(otherNamespace, 'memory_recall', { query: 'editor' })).data).toEqual({
      query: 'editor',
      notes: [],
    });
    readerStore.close();
  });

  it('updates a keyed note, reports unchanged repeats, and forgets it idempotently', async () => {
    const provider = new MemoryToolProvider({ store: new InMemoryNoteStore() });
    await call(provider, 'memory_remember', { key: 'city', text: 'Lives in Lyon.' });
    expect((await call(provider, 'memory_remember', { key: 'city', text: 'Lives in Lyon.' })).data).toMatchObject({
      status: 'unchanged',
      version: 1,
    });
    expect((await call(provider, 'memory_remember', { key: 'city', text: 'Moved to Nantes.' })).data).toMatchObject({
      status: 'updated',
      version: 2,
    });
    expect((await call(provider, 'memory_recall', { query: 'Lyon' })).data).toEqual({ query: 'Lyon', notes: [] });
    expect((await call(provider, 'memory_forget', { key: 'city' })).data).toEqual({ key: 'city', forgotten: true });
    expect((await call(provider, 'memory_forget', { key: 'city' })).data).toEqual({ key: 'city', forgotten: false });
    expect((await call(provider, 'memory_recall', { query: 'Nantes' })).data).toEqual({ query: 'Nantes', notes: [] });
  });

  it('stores a keyless note under a key derived from the idempotency key, so a retry does not duplicate it', async () => {
    const provider = new MemoryToolProvider();
    const first = await call(provider, 'memory_remember', { text: 'Deploys happen on Fridays.' }, 'run-1:call-7');
    const retry = await call(provider, 'memory_remember', { text: 'Deploys happen on Fridays.' }, 'run-1:call-7');
    expect(retry.data).toEqual({ ...(first.data as object), status: 'unchanged' });
    const other = await call(provider, 'memory_remember', { text: 'Deploys happen on Fridays.' }, 'run-1:call-8');
    expect((other.data as { key: string }).key).not.toBe((first.data as { key: string }).key);
    expect((await call(provider, 'memory_recall', { query: 'deploys' })).data).toMatchObject({ notes: [{}, {}] });
  });

  it('accepts the legacy invoke form, where a keyless note gets a fresh random key each time', async () => {
    const provider = new MemoryToolProvider();
    const first = await provider.invoke('memory_remember', { text: 'Standup at nine.' });
    const second = await provider.invoke('memory_remember', { text: 'Standup at nine.' });
    expect(first.data).toMatchObject({ status: 'created' });
    expect((second.data as { key: string }).key).not.toBe((first.data as { key: string }).key);
    expect((await provider.invoke('memory_recall', { query: 'standup' })).data).toMatchObject({ notes: [{}, {}] });
  });

  it.each<[string, JsonObject]>([
    ['memory_remember', {}],
    ['memory_remember', { text: '' }],
    ['memory_remember', { text: 'x', key: 'has space' }],
    ['memory_remember', { text: 'x', tags: 'not-an-array' }],
    ['memory_remember', { text: 'x'.repeat(4001) }],
    ['memory_recall', { query: 'x', limit: 0 }],
    ['memory_recall', { query: 'x', unknown: 1 }],
    ['memory_forget', {}],
  ])('answers bad input to %s %j with invalid_arguments', async (tool, args) => {
    const outcome = await call(new MemoryToolProvider(), tool, args);
    expect(outcome.ok).toBe(false);
    expect(outcome.error).toMatchObject({ code: 'invalid_arguments', category: 'validation', retryable: false });
  });

  it.each(['"unbalanced', 'NEAR(', '***', 'key:editor OR'])(
    'turns the hostile recall query %s into an outcome',
    async (query) => {
      const provider = new MemoryToolProvider();
      await call(provider, 'memory_remember', { key: 'editor', text: 'near the unbalanced editor' });
      const outcome = await call(provider, 'memory_recall', { query });
      if (!outcome.ok) expect(outcome.error?.code).toBe('invalid_arguments');
    },
  );

  it('answers a whitespace-only note and an unknown tool with failures, and rejects bad options with a typed error', async () => {
    const provider = new MemoryToolProvider();
    expect((await call(provider, 'memory_remember', { text: '   ' })).error?.code).toBe('invalid_arguments');
    const unknown = { ...invocationFor(provider, 'memory_recall', { query: 'x' }), toolName: 'memory_dump' };
    expect((await provider.invokeTool(unknown)).error?.code).toBe('unknown_tool');
    expect(() => new MemoryToolProvider({ defaultLimit: 50, maxLimit: 10 })).toThrow(MemoryModuleError);
    expect(() => new MemoryToolProvider({ namespace: '' })).toThrow(
      expect.objectContaining({ code: 'invalid_memory_options' }),
    );
  });
});
