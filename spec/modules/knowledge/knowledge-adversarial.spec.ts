import { execFileSync } from 'node:child_process';
import {
  linkSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as collect from '../../../lib/modules/knowledge/collect-document-files';
import { KnowledgeIndex } from '../../../lib/modules/knowledge/knowledge-index';
import { KnowledgeToolProvider } from '../../../lib/modules/knowledge/knowledge-tool-provider';
import { SqliteNoteStore } from '../../../lib/modules/memory/sqlite-note-store';

describe('KnowledgeIndex.addDirectory stays inside its directory', () => {
  let base: string;
  let docs: string;
  let outside: string;
  beforeEach(() => {
    base = realpathSync(mkdtempSync(path.join(tmpdir(), 'wuwe-knowledge-adv-')));
    docs = path.join(base, 'docs');
    outside = path.join(base, 'outside');
    mkdirSync(path.join(docs, 'sub'), { recursive: true });
    mkdirSync(outside);
    writeFileSync(path.join(outside, 'secret.md'), '# Secret\n\nclassified launch codes');
    writeFileSync(path.join(docs, 'sub', 'secret.md'), '# Public\n\nharmless words');
    writeFileSync(path.join(docs, 'guide.md'), '# Guide\n\nharmless guide');
  });
  afterEach(() => {
    jest.restoreAllMocks();
    rmSync(base, { recursive: true, force: true });
  });

  /** Runs `swap` after the directory scan and before any file is read, as a concurrent writer could. */
  const swapAfterScan = (swap: () => void): void => {
    const original = collect.collectDocumentFiles;
    jest.spyOn(collect, 'collectDocumentFiles').mockImplementation(async (root, recursive) => {
      const files = await original(root, recursive);
      swap();
      return files;
    });
  };

  it('skips links to files and directories outside, and a file hard-linked from outside', async () => {
    symlinkSync(path.join(outside, 'secret.md'), path.join(docs, 'link.md'));
    symlinkSync(outside, path.join(docs, 'out-dir'));
    linkSync(path.join(outside, 'secret.md'), path.join(docs, 'twin.md'));
    const index = new KnowledgeIndex();
    const report = await index.addDirectory(docs);
    expect(report.indexed.map((document) => document.source)).toEqual(['guide.md', 'sub/secret.md']);
    expect(report.skipped.map((entry) => entry.source)).toEqual(['link.md', 'out-dir', 'twin.md']);
    expect(index.search('classified')).toEqual([]);
  });

  it('does not read a file swapped for a symlink to outside between the scan and the read', async () => {
    swapAfterScan(() => {
      rmSync(path.join(docs, 'guide.md'));
      symlinkSync(path.join(outside, 'secret.md'), path.join(docs, 'guide.md'));
    });
    const index = new KnowledgeIndex();
    const report = await index.addDirectory(docs);
    expect(report.indexed.map((document) => document.source)).toEqual(['sub/secret.md']);
    expect(report.skipped.map((entry) => entry.source)).toEqual(['guide.md']);
    expect(index.search('classified')).toEqual([]);
  });

  it('does not read through a parent directory swapped for a symlink to outside after the scan', async () => {
    swapAfterScan(() => {
      renameSync(path.join(docs, 'sub'), path.join(base, 'moved'));
      symlinkSync(outside, path.join(docs, 'sub'));
    });
    const index = new KnowledgeIndex();
    const report = await index.addDirectory(docs);
    expect(report.indexed.map((document) => document.source)).toEqual(['guide.md']);
    expect(report.skipped.map((entry) => entry.source)).toEqual(['sub/secret.md']);
    expect(index.search('classified')).toEqual([]);
  });

  it('does not block on a file swapped for a FIFO after the scan', async () => {
    swapAfterScan(() => {
      rmSync(path.join(docs, 'guide.md'));
      execFileSync('mkfifo', [path.join(docs, 'guide.md')]);
    });
    const index = new KnowledgeIndex();
    const report = await index.addDirectory(docs);
    expect(report.indexed.map((document) => document.source)).toEqual(['sub/secret.md']);
    expect(report.skipped).toEqual([{ source: 'guide.md', reason: expect.stringContaining('not a regular file') }]);
  }, 5000);
});

describe('full-text queries from the model are never parsed as FTS5 syntax', () => {
  const HOSTILE = [
    '"',
    '""',
    '"unterminated',
    '*',
    'launch*',
    'NEAR(launch codes, 1)',
    'launch NEAR codes',
    '-launch',
    '^launch',
    'title:launch',
    'body:launch OR heading:x',
    '{title body}:launch',
    'launch AND NOT codes',
    '(launch',
    'launch)',
    'launch + codes',
    'rank:1',
    "'); DROP TABLE wuwe_knowledge_documents; --",
    '\uD800launch\uDC00',
    '\u0301',
    '\uFEFFlaunch',
    'l\u0000aunch',
  ];

  it('answers each hostile knowledge_search query with hits or a typed invalid_arguments, never a tool_error', () => {
    const provider = new KnowledgeToolProvider();
    provider.index.addDocument({ source: 'plan.md', text: '# Plan\n\nthe launch codes are rotated daily' });
    for (const query of HOSTILE) {
      const outcome = provider.invoke('knowledge_search', { query });
      if (!outcome.ok) expect(outcome.error).toMatchObject({ code: 'invalid_arguments' });
    }
    expect(provider.index.listDocuments()).toHaveLength(1);
    expect(provider.invoke('knowledge_search', { query: 'title:launch' })).toMatchObject({
      ok: true,
      data: { hits: [expect.objectContaining({ source: 'plan.md' })] },
    });
  });

  it('stores and finds documents and notes holding lone surrogates, and bounds a huge query', () => {
    const index = new KnowledgeIndex();
    index.addDocument({ source: 'odd.txt', text: 'broken \uD800 surrogate \uDFFF text' });
    expect(index.search('surrogate')).toHaveLength(1);
    const huge = `${Array.from({ length: 100_000 }, (_, i) => `w${i}`).join(' ')} surrogate`;
    expect(index.search(huge)).toEqual([]);
    const notes = new SqliteNoteStore(':memory:');
    notes.remember({ namespace: 'n', key: 'k', text: 'lone \uDC00 note', tags: ['\uD800'] });
    for (const query of HOSTILE.filter((q) => /[a-z]/i.test(q)))
      expect(() => notes.recall({ namespace: 'n', query, limit: 5 })).not.toThrow();
    expect(notes.recall({ namespace: 'n', query: 'note', limit: 5 })).toHaveLength(1);
  });
});
