import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { KnowledgeIndex } from '../../../lib/modules/knowledge/knowledge-index';

describe('KnowledgeIndex.addDirectory skips what it cannot index, with the reason', () => {
  let docs: string;
  beforeEach(() => {
    docs = realpathSync(mkdtempSync(path.join(tmpdir(), 'wuwe-knowledge-skip-')));
    writeFileSync(path.join(docs, 'a.md'), '# A\n\nalpha words');
    writeFileSync(path.join(docs, 'b.md'), '# B\n\nbravo words');
  });
  afterEach(() => rmSync(docs, { recursive: true, force: true }));

  const reasonOf = (report: { skipped: readonly { source: string; reason: string }[] }, source: string) =>
    report.skipped.find((entry) => entry.source === source)?.reason;

  it('skips a file whose relative path is over the source limit and indexes the rest', async () => {
    const deep = Array.from({ length: 5 }, (_, i) => `${String(i)}${'d'.repeat(240)}`);
    mkdirSync(path.join(docs, ...deep), { recursive: true });
    writeFileSync(path.join(docs, ...deep, 'long.md'), '# Long\n\nlongword');
    writeFileSync(path.join(docs, 'z.md'), '# Z\n\nzulu words');
    const index = new KnowledgeIndex();
    const report = await index.addDirectory(docs);
    expect(report.indexed.map((document) => document.source)).toEqual(['a.md', 'b.md', 'z.md']);
    expect(reasonOf(report, `${deep.join('/')}/long.md`)).toMatch(/path.*longer than 1024/);
    expect(index.search('zulu')).toHaveLength(1);
  });

  it('reports FIFOs, symbolic links and hidden entries instead of passing over them silently', async () => {
    execFileSync('mkfifo', [path.join(docs, 'pipe.md')]);
    symlinkSync('a.md', path.join(docs, 'link.md'));
    writeFileSync(path.join(docs, '.hidden.md'), 'secret');
    mkdirSync(path.join(docs, '.git'));
    const report = await new KnowledgeIndex().addDirectory(docs);
    expect(report.indexed.map((document) => document.source)).toEqual(['a.md', 'b.md']);
    expect(reasonOf(report, 'pipe.md')).toMatch(/not a regular file/);
    expect(reasonOf(report, 'link.md')).toMatch(/symbolic link/);
    expect(reasonOf(report, '.hidden.md')).toMatch(/hidden/);
    expect(reasonOf(report, '.git')).toMatch(/hidden/);
  });

  it('removes the passages of deleted files when a directory is added again, and keeps other documents', async () => {
    const index = new KnowledgeIndex();
    index.addDocument({ source: 'manual.md', text: 'bravo by hand' });
    await index.addDirectory(docs, { sourcePrefix: 'docs/' });
    expect(
      index
        .search('bravo')
        .map((hit) => hit.source)
        .sort(),
    ).toEqual(['docs/b.md', 'manual.md']);
    rmSync(path.join(docs, 'b.md'));
    const report = await index.addDirectory(docs, { sourcePrefix: 'docs/' });
    expect(report.removed).toEqual(['docs/b.md']);
    expect(index.search('bravo').map((hit) => hit.source)).toEqual(['manual.md']);
    expect(index.listDocuments().map((document) => document.source)).toEqual(['docs/a.md', 'manual.md']);
  });

  it('leaves the index as it was when the directory cannot be read', async () => {
    const index = new KnowledgeIndex();
    await index.addDirectory(docs);
    await expect(index.addDirectory(path.join(docs, 'missing'))).rejects.toMatchObject({
      code: 'document_read_failed',
    });
    expect(index.listDocuments()).toHaveLength(2);
  });
});
