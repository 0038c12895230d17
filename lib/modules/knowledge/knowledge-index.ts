import type Database from 'better-sqlite3';
import { FileHandle, realpath } from 'node:fs/promises';
import { openConfinedFile } from '../filesystem/safe-open';
import { collectDocumentFiles } from './collect-document-files';
import { toFtsMatchQuery } from './fts-query';
import { KnowledgeIndexError } from './knowledge-index-error';
import { createKnowledgeTables, KNOWLEDGE_DOCUMENTS_TABLE as DOCUMENTS, KNOWLEDGE_PASSAGES_TABLE as PASSAGES } from './knowledge-schema';
import { DirectoryIndexOptions, DirectoryIndexReport, IndexedDocument, KnowledgeDocumentInput, KnowledgeHit, KnowledgeIndexOptions } from './knowledge-types';
import { openSqliteDatabase } from './open-database';
import type { SqliteSource } from './sqlite-source';
import { resolveKnowledgeIndexOptions, ResolvedKnowledgeIndexOptions } from './resolve-knowledge-options';
import { splitDocument } from './split-document';
import { messageOf } from '../../errors/message-of';

interface HitRow {
  source: string;
  title: string;
  heading: string;
  ordinal: number;
  rank: number;
  snippet: string;
  passage: string;
}

/**
 * A full-text index of documents on SQLite FTS5. Documents are cut into passages (Markdown by
 * headings and paragraphs); a search ranks passages with FTS5 `bm25()` (heading and title matches
 * weigh more than body matches) and marks matches with `snippet()` and `highlight()`.
 */
export class KnowledgeIndex {
  private readonly database: Database.Database;
  private readonly owned: boolean;
  private readonly options: ResolvedKnowledgeIndexOptions;

  /** Opens (and creates the tables of) an index in a SQLite file, an open database, or by default a private in-memory database. */
  constructor(source: SqliteSource = ':memory:', options: KnowledgeIndexOptions = {}) {
    this.options = resolveKnowledgeIndexOptions(options);
    const opened = openSqliteDatabase(source, undefined, 'KnowledgeIndex');
    this.database = opened.database;
    this.owned = opened.owned;
    createKnowledgeTables(this.database);
  }

  /** Indexes one document from a string; a document with the same source is replaced. Throws `KnowledgeIndexError` (`invalid_document`). */
  addDocument(document: KnowledgeDocumentInput): IndexedDocument {
    const split = splitDocument(document, this.options.maxPassageChars);
    const { source, title, format, passages } = split;
    const write = this.database.transaction(() => {
      this.removeDocumentRows(source);
      const { lastInsertRowid } = this.database
        .prepare(`INSERT INTO ${DOCUMENTS} (source, title, format, passage_count, indexed_at) VALUES (?, ?, ?, ?, ?)`)
        .run(source, title, format, passages.length, Date.now());
      const insert = this.database.prepare(`INSERT INTO ${PASSAGES} (body, heading, title, document_id, ordinal) VALUES (?, ?, ?, ?, ?)`);
      passages.forEach((passage, ordinal) => insert.run(passage.text, passage.heading, title, lastInsertRowid, ordinal));
    });
    write();
    return { source, title, format, passageCount: passages.length };
  }

  /** Indexes several documents in order. */
  addDocuments(documents: readonly KnowledgeDocumentInput[]): IndexedDocument[] {
    return documents.map((document) => this.addDocument(document));
  }

  /**
   * Indexes the `.md` and `.txt` files under a directory (other files, hidden entries and symbolic
   * links are ignored). Sources are the files' `/`-separated paths relative to the directory.
   * Each file is opened with the Filesystem toolkit's confined open, so what is read is checked at
   * read time, not only at scan time: a file or a parent directory swapped for a symbolic link after
   * the scan, a FIFO or device, and a file with a second hard link (whose other name may lie outside)
   * are skipped, never read. Throws `KnowledgeIndexError` (`document_read_failed`) when the directory
   * cannot be read.
   */
  async addDirectory(directory: string, options: DirectoryIndexOptions = {}): Promise<DirectoryIndexReport> {
    const maxFileBytes = options.maxFileBytes ?? 5 * 1024 * 1024;
    let files;
    let root: string;
    try {
      root = await realpath(directory);
      files = await collectDocumentFiles(root, options.recursive ?? true);
    } catch (error) {
      throw new KnowledgeIndexError('document_read_failed', `Cannot read directory '${directory}': ${describe(error)}`, { cause: error });
    }
    const indexed: IndexedDocument[] = [];
    const skipped: { source: string; reason: string }[] = [];
    for (const file of files) {
      const source = `${options.sourcePrefix ?? ''}${file.relativePath}`;
      let bytes: Buffer | string;
      try {
        const handle = await openConfinedFile(root, file.absolutePath, file.relativePath, 'read');
        try {
          const { size } = await handle.stat();
          bytes = size > maxFileBytes ? `larger than ${maxFileBytes} bytes` : ((await readAtMost(handle, size)) ?? 'grew while it was read');
        } finally {
          await handle.close();
        }
      } catch (error) {
        bytes = `unreadable: ${describe(error)}`;
      }
      if (typeof bytes === 'string') {
        skipped.push({ source, reason: bytes });
        continue;
      }
      let text: string;
      try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      } catch {
        skipped.push({ source, reason: 'not valid UTF-8 text' });
        continue;
      }
      indexed.push(this.addDocument({ source, text }));
    }
    return { indexed, skipped };
  }

  /** Removes a document and its passages; true when it was indexed. */
  removeDocument(source: string): boolean {
    return this.database.transaction(() => this.removeDocumentRows(source))();
  }

  /** The indexed documents, by source. */
  listDocuments(): IndexedDocument[] {
    const rows = this.database
      .prepare(`SELECT source, title, format, passage_count AS passageCount FROM ${DOCUMENTS} ORDER BY source`)
      .all() as IndexedDocument[];
    return rows.map((row) => ({ ...row }));
  }

  /**
   * Ranked passages for free text. The text is reduced to quoted terms (see {@link toFtsMatchQuery}),
   * so FTS5 syntax in it is never parsed. Throws `KnowledgeIndexError` (`invalid_query`) when no
   * searchable term is left.
   */
  search(query: string, limit = 5): KnowledgeHit[] {
    const match = toFtsMatchQuery(query);
    if (match === undefined) throw new KnowledgeIndexError('invalid_query', 'The query has no searchable words (letters or digits).');
    const { snippetTokens, highlightOpen: open, highlightClose: close, maxLimit } = this.options;
    const bounded = Number.isFinite(limit) ? Math.max(1, Math.min(maxLimit, Math.floor(limit))) : 5;
    const rows = this.database
      .prepare(
        `SELECT d.source, d.title, p.heading, p.ordinal, p.rank, p.snippet, p.passage
         FROM (SELECT document_id, ordinal, heading, bm25(${PASSAGES}, 1.0, 2.0, 2.0) AS rank,
                      snippet(${PASSAGES}, 0, ?, ?, '…', ?) AS snippet, highlight(${PASSAGES}, 0, ?, ?) AS passage
               FROM ${PASSAGES} WHERE ${PASSAGES} MATCH ? ORDER BY rank LIMIT ?) AS p
         JOIN ${DOCUMENTS} AS d ON d.id = p.document_id
         ORDER BY p.rank`,
      )
      .all(open, close, snippetTokens, open, close, match, bounded) as HitRow[];
    return rows.map((row, index) => ({
      rank: index + 1,
      score: -row.rank,
      source: row.source,
      title: row.title,
      heading: row.heading,
      passageIndex: Number(row.ordinal),
      snippet: row.snippet,
      passage: row.passage,
    }));
  }

  /** Closes the database when the index opened it; an injected database stays open. */
  close(): void {
    if (this.owned && this.database.open) this.database.close();
  }

  private removeDocumentRows(source: string): boolean {
    const row = this.database.prepare(`SELECT id FROM ${DOCUMENTS} WHERE source = ?`).get(source) as { id: number } | undefined;
    if (row === undefined) return false;
    this.database.prepare(`DELETE FROM ${PASSAGES} WHERE document_id = ?`).run(row.id);
    this.database.prepare(`DELETE FROM ${DOCUMENTS} WHERE id = ?`).run(row.id);
    return true;
  }
}

/** The content of an open file, or undefined when it holds more than the `maxBytes` it was measured at. */
async function readAtMost(handle: FileHandle, maxBytes: number): Promise<Buffer | undefined> {
  const buffer = Buffer.alloc(maxBytes + 1);
  let length = 0;
  while (length < buffer.length) {
    const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
    if (bytesRead === 0) break;
    length += bytesRead;
  }
  return length > maxBytes ? undefined : buffer.subarray(0, length);
}

function describe(error: unknown): string {
  return messageOf(error);
}
