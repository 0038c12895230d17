import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { KnowledgeIndex } from '../../../lib/modules/knowledge/knowledge-index';
import { KnowledgeIndexError } from '../../../lib/modules/knowledge/knowledge-index-error';

const GUIDE = `---
layout: doc
---
# Deployment guide

Intro paragraph about shipping the service.

## Database migrations

Run the migrations before starting the workers. Migrations lock the schema table.

## Rollback

To roll back, redeploy the previous image. The database stays untouched.

\`\`\`sh
# not a heading: a shell comment
./rollback.sh
\`\`\`
`;

describe('KnowledgeIndex', () => {
  let directory: string;
  beforeEach(() => {
    directory = mkdtempSync(path.join(tmpdir(), 'wuwe-knowledge-'));
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('splits Markdown by headings and keeps the source, title and heading path of each passage', () => {
    const index = new KnowledgeIndex(path.join(directory, 'k.db'));
    const indexed = index.addDocument({ source: 'docs/deploy.md', text: GUIDE });
    expect(indexed).toEqual({
      source: 'docs/deploy.md',
      title: 'Deployment guide',
      format: 'markdown',
      passageCount: 3,
    });

    const hits = index.search('migrations workers');
    expect(hits[0]).toMatchObject({
      rank: 1,
      source: 'docs/deploy.md',
      title: 'Deployment guide',
      heading: 'Deployment guide > Database migrations',
      passageIndex: 1,
    });
    expect(hits[0].snippet).toContain('**migrations**');
    expect(hits[0].passage).toBe(
      'Run the **migrations** before starting the **workers**. **Migrations** lock the schema table.',
    );

    const fenced = index.search('rollback.sh shell comment');
    expect(fenced[0].heading).toBe('Deployment guide > Rollback');
    expect(fenced[0].passage).toContain('# not a heading');
    index.close();
  });

  it('ranks with bm25: the passage matching more terms comes first, scores descend', () => {
    const index = new KnowledgeIndex();
    index.addDocuments([
      { source: 'a.txt', text: 'Cats purr.' },
      { source: 'b.txt', text: 'Cats and dogs sleep together in the sun.' },
      { source: 'c.txt', text: 'Nothing relevant here.' },
    ]);
    const hits = index.search('cats dogs sleep', 10);
    expect(hits.map((hit) => hit.source)).toEqual(['b.txt', 'a.txt']);
    expect(hits[0].score).toBeGreaterThan(hits[1].score);
    expect(index.search('cats', 1)).toHaveLength(1);
  });

  it.each(['"unbalanced', 'NEAR(', 'a AND OR NOT', 'title:secret*', '^start', '((( near', 'x" OR "y'])(
    'never hands FTS5 syntax in the query to SQLite: %s',
    (query) => {
      const index = new KnowledgeIndex();
      index.addDocument({ source: 'n.txt', text: 'near the unbalanced start of x and y; title secret' });
      expect(() => index.search(query)).not.toThrow();
      expect(index.search(query).length).toBeGreaterThan(0);
    },
  );

  it('refuses a query without searchable words with a typed error', () => {
    const index = new KnowledgeIndex();
    expect(() => index.search('"*(): ')).toThrow(KnowledgeIndexError);
    expect(() => index.search('')).toThrow(expect.objectContaining({ code: 'invalid_query' }));
  });

  it('splits a large document into passages under the size limit without losing words', () => {
    const index = new KnowledgeIndex(':memory:', { maxPassageChars: 300 });
    const sentences = Array.from({ length: 200 }, (_, i) => `Sentence number ${i} talks about topic${i}.`);
    const long = `# Big\n\n${sentences.slice(0, 100).join(' ')}\n\n${sentences.slice(100).join(' ')}`;
    const indexed = index.addDocument({ source: 'big.md', text: long });
    expect(indexed.passageCount).toBeGreaterThan(long.length / 300);
    const hit = index.search('topic137')[0];
    expect(hit.passage.length).toBeLessThanOrEqual(300 + 4);
    expect(hit.passage).toContain('**topic137**');
    expect(index.search('topic199')).toHaveLength(1);
  });

  it('replaces a document indexed again under the same source, and removes documents', () => {
    const index = new KnowledgeIndex();
    index.addDocument({ source: 'x.txt', text: 'old words' });
    index.addDocument({ source: 'x.txt', text: 'new words' });
    expect(() => index.search('old')).not.toThrow();
    expect(index.search('old')).toEqual([]);
    expect(index.search('new')).toHaveLength(1);
    expect(index.removeDocument('x.txt')).toBe(true);
    expect(index.search('new')).toEqual([]);
    expect(index.listDocuments()).toEqual([]);
  });

  it('indexes only .md and .txt files of a directory, recursively, skipping symlinks and invalid UTF-8', async () => {
    mkdirSync(path.join(directory, 'docs', 'nested'), { recursive: true });
    writeFileSync(path.join(directory, 'docs', 'readme.md'), '# Readme\n\nalpha words');
    writeFileSync(path.join(directory, 'docs', 'nested', 'notes.txt'), 'beta words');
    writeFileSync(path.join(directory, 'docs', 'script.js'), 'gamma words');
    writeFileSync(path.join(directory, 'docs', 'binary.txt'), Buffer.from([0xff, 0xfe, 0x00, 0x41]));
    symlinkSync(path.join(directory, 'docs', 'readme.md'), path.join(directory, 'docs', 'link.md'));
    const index = new KnowledgeIndex(path.join(directory, 'k.db'));
    const report = await index.addDirectory(path.join(directory, 'docs'));
    expect(report.indexed.map((document) => document.source)).toEqual(['nested/notes.txt', 'readme.md']);
    expect(report.skipped).toEqual([
      { source: 'link.md', reason: 'symbolic link (links are not followed)' },
      { source: 'binary.txt', reason: 'not valid UTF-8 text' },
    ]);
    expect(index.search('gamma')).toEqual([]);
    expect(index.search('beta')[0].source).toBe('nested/notes.txt');
    index.close();
  });

  it('fails with a typed error for a missing directory and bad options', async () => {
    const index = new KnowledgeIndex();
    await expect(index.addDirectory(path.join(directory, 'missing'))).rejects.toMatchObject({
      code: 'document_read_failed',
    });
    expect(() => new KnowledgeIndex(':memory:', { maxPassageChars: 10 })).toThrow(KnowledgeIndexError);
    expect(() => index.addDocument({ source: '', text: 'x' })).toThrow(
      expect.objectContaining({ code: 'invalid_document' }),
    );
  });

  it('persists in a file and shares an open database without closing it', () => {
    const file = path.join(directory, 'shared.db');
    const first = new KnowledgeIndex(file);
    first.addDocument({ source: 'p.txt', text: 'persistent passage' });
    first.close();
    const database = new Database(file);
    const second = new KnowledgeIndex(database);
    expect(second.search('persistent')[0].source).toBe('p.txt');
    second.close();
    expect(database.open).toBe(true);
    expect(database.pragma('journal_mode', { simple: true })).toBe('wal');
    database.close();
  });
});
