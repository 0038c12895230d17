import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { SqliteNoteStore } from '../../../lib/modules/memory/sqlite-note-store';

describe('SqliteNoteStore namespaces share no ranking statistics', () => {
  let directory: string;
  beforeEach(() => {
    directory = mkdtempSync(path.join(tmpdir(), 'wuwe-notes-ns-'));
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  const seed = (store: SqliteNoteStore, namespace: string) => {
    store.remember({ namespace, key: 'editor', text: 'The user prefers the vim editor for code', tags: ['code'] });
    store.remember({
      namespace,
      key: 'city',
      text: 'The user lives in Lyon and likes the editor of the local paper',
      tags: [],
    });
    store.remember({ namespace, key: 'tea', text: 'Green tea every morning, never coffee', tags: [] });
  };
  const recall = (store: SqliteNoteStore, namespace: string, query: string) =>
    store.recall({ namespace, query, limit: 10 }).map((match) => ({ key: match.key, score: match.score }));

  it('answers the same scores and order in one namespace whatever another namespace stores', () => {
    const store = new SqliteNoteStore(path.join(directory, 'notes.db'));
    seed(store, 'alice');
    const before = [
      recall(store, 'alice', 'editor vim'),
      recall(store, 'alice', 'user coffee'),
      recall(store, 'alice', 'Lyon paper'),
    ];
    for (let i = 0; i < 40; i += 1)
      store.remember({
        namespace: 'mallory',
        key: `probe-${String(i)}`,
        text: i % 2 === 0 ? 'editor editor editor' : 'vim user Lyon coffee paper',
        tags: [],
      });
    const after = [
      recall(store, 'alice', 'editor vim'),
      recall(store, 'alice', 'user coffee'),
      recall(store, 'alice', 'Lyon paper'),
    ];
    expect(after).toEqual(before);
    store.forget('mallory', 'probe-0');
    expect([
      recall(store, 'alice', 'editor vim'),
      recall(store, 'alice', 'user coffee'),
      recall(store, 'alice', 'Lyon paper'),
    ]).toEqual(before);
    store.close();
  });

  it('ranks like a store holding that namespace alone', () => {
    const alone = new SqliteNoteStore(':memory:');
    seed(alone, 'alice');
    const shared = new SqliteNoteStore(':memory:');
    shared.remember({ namespace: 'bob', key: 'x', text: 'editor vim user user user', tags: [] });
    seed(shared, 'alice');
    shared.remember({ namespace: 'bob', key: 'y', text: 'coffee coffee tea', tags: [] });
    for (const query of ['editor vim', 'user coffee', 'tea'])
      expect(recall(shared, 'alice', query)).toEqual(recall(alone, 'alice', query));
  });

  it('migrates a file of the earlier schema (one shared index kept by triggers) and keeps its notes searchable', () => {
    const file = path.join(directory, 'old.db');
    const raw = new Database(file);
    raw.exec(`
      CREATE TABLE wuwe_memory_notes (id INTEGER PRIMARY KEY AUTOINCREMENT, namespace TEXT NOT NULL, key TEXT NOT NULL, text TEXT NOT NULL,
        tags TEXT NOT NULL, version INTEGER NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, UNIQUE (namespace, key));
      CREATE VIRTUAL TABLE wuwe_memory_notes_fts USING fts5(text, tags, key, content = 'wuwe_memory_notes', content_rowid = 'id',
        tokenize = 'porter unicode61 remove_diacritics 2');
      CREATE TRIGGER wuwe_memory_notes_after_insert AFTER INSERT ON wuwe_memory_notes BEGIN
        INSERT INTO wuwe_memory_notes_fts (rowid, text, tags, key) VALUES (new.id, new.text, new.tags, new.key);
      END;
      INSERT INTO wuwe_memory_notes (namespace, key, text, tags, version, created_at, updated_at) VALUES
        ('alice', 'editor', 'The user prefers the vim editor', '[]', 1, 1, 1),
        ('bob', 'editor', 'editor editor editor', '[]', 1, 1, 1);
    `);
    raw.close();
    const store = new SqliteNoteStore(file);
    const alone = new SqliteNoteStore(':memory:');
    alone.remember({ namespace: 'alice', key: 'editor', text: 'The user prefers the vim editor', tags: [] });
    expect(recall(store, 'alice', 'editor')).toEqual(recall(alone, 'alice', 'editor'));
    store.remember({ namespace: 'alice', key: 'tea', text: 'Black tea now', tags: [] });
    expect(recall(store, 'alice', 'black').map((match) => match.key)).toEqual(['tea']);
    expect(store.forget('alice', 'editor')).toBe(true);
    expect(recall(store, 'alice', 'editor')).toEqual([]);
    expect(recall(store, 'bob', 'editor').map((match) => match.key)).toEqual(['editor']);
    store.close();
    const reopened = new SqliteNoteStore(file);
    expect(recall(reopened, 'alice', 'black').map((match) => match.key)).toEqual(['tea']);
    reopened.close();
  });
});
