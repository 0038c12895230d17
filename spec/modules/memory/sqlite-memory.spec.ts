import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ChatMessage } from '../../../lib/model/model-types';
import { MemoryModuleError } from '../../../lib/modules/memory/memory-module-error';
import { SqliteMemory } from '../../../lib/modules/memory/sqlite-memory';

const CONVERSATION: ChatMessage[] = [
  { role: 'user', content: 'Weather in Tokyo?' },
  { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'get_weather', arguments: { city: 'Tokyo' } }] },
  {
    role: 'tool',
    toolCallId: 'c1',
    toolName: 'get_weather',
    content: '{"ok":false,"error":{"code":"timeout"}}',
    isError: true,
  },
  { role: 'assistant', content: 'It is 22 degrees — ☀️.', toolCalls: [] },
];

describe('SqliteMemory', () => {
  let directory: string;
  beforeEach(() => {
    directory = mkdtempSync(path.join(tmpdir(), 'wuwe-memory-'));
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('keeps each run conversation in order across a reopen of the same file', () => {
    const file = path.join(directory, 'agent.db');
    const first = new SqliteMemory(file);
    for (const message of CONVERSATION) first.append('run-a', message);
    first.append('run-b', { role: 'user', content: 'other run' });
    first.close();

    const reopened = new SqliteMemory(file);
    expect(reopened.messages('run-a')).toEqual(CONVERSATION);
    expect(reopened.messages('run-b')).toEqual([{ role: 'user', content: 'other run' }]);
    expect(reopened.messages('unknown')).toEqual([]);
    expect(reopened.runIds()).toEqual(['run-a', 'run-b']);
    reopened.append('run-a', { role: 'user', content: 'thanks' });
    expect(reopened.messages('run-a')).toHaveLength(CONVERSATION.length + 1);
    expect(reopened.clear('run-b')).toBe(1);
    expect(reopened.messages('run-b')).toEqual([]);
    reopened.close();
  });

  it('uses WAL on a file and leaves an injected database open', () => {
    const database = new Database(path.join(directory, 'shared.db'));
    const memory = new SqliteMemory(database);
    memory.append('r', { role: 'user', content: 'hi' });
    memory.close();
    expect(database.open).toBe(true);
    expect(database.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(database.prepare('SELECT COUNT(*) AS n FROM wuwe_memory_messages').get()).toEqual({ n: 1 });
    database.close();
  });

  it('refuses messages that are not chat messages with a typed error', () => {
    const memory = new SqliteMemory(':memory:');
    expect(() => memory.append('r', { role: 'system', content: 'x' } as never)).toThrow(MemoryModuleError);
    expect(() => memory.append('', { role: 'user', content: 'x' })).toThrow(
      expect.objectContaining({ code: 'invalid_message' }),
    );
    const cyclic: Record<string, unknown> = { role: 'user' };
    cyclic.content = cyclic;
    expect(() => memory.append('r', cyclic as never)).toThrow(expect.objectContaining({ code: 'invalid_message' }));
    expect(memory.messages('r')).toEqual([]);
  });
});
