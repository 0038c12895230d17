import type Database from 'better-sqlite3';
import { FileHandle, realpath } from 'node:fs/promises';
import { openConfinedFile } from '../filesystem/safe-open';
import { collectDocumentFiles, DocumentFile } from './collect-document-files';
import { toFtsMatchQuery } from './fts-query';
import { KnowledgeIndexError } from './knowledge-index-error';
import {
  createKnowledgeTables,
  KNOWLEDGE_DOCUMENTS_TABLE as DOCUMENTS,
  KNOWLEDGE_PASSAGES_TABLE as PASSAGES,
} from './knowledge-schema';
import {
  DirectoryIndexOptions,
  DirectoryIndexReport,
  IndexedDocument,
  KnowledgeDocumentInput,
  KnowledgeHit,
  KnowledgeIndexOptions,
} from './knowledge-types';
import { openSqliteDatabase } from './open-database';
import type { SqliteSource } from './sqlite-source';
import { resolveKnowledgeIndexOptions, ResolvedKnowledgeIndexOptions } from './resolve-knowledge-options';
import { MAX_SOURCE_CHARS, splitDocument, SplitDocument } from './split-document';
import { MATCH_CLOSE_SENTINEL, MATCH_OPEN_SENTINEL, renderMarkedText, withoutSentinels } from './mark-matches';
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
 * weigh more than body matches) and marks matches with `snippet()` and `highlight()`, the markers
 * escaped where the text holds them (see `renderMarkedText`).
 */
export class KnowledgeIndex {
  private readonly database: Database.Database;
  private readonly owned: boolean;
  private readonly options: ResolvedKnowledgeIndexOptions;

  /**
   * Opens (and creates the tables of) an index in a SQLite file, an open database, or by default a private in-memory
   * database.
   */
  constructor(source: SqliteSource = ':memory:', options: KnowledgeIndexOptions = {}) {
    this.options = resolveKnowledgeIndexOptions(options);
    const opened = openSqliteDatabase(source, undefined, 'KnowledgeIndex');
    this.database = opened.database;
    this.owned = opened.owned;
    createKnowledgeTables(this.database);
  }

  /**
   * Indexes one document from a string; a document with the same source is replaced. Throws `KnowledgeIndexError`
   * (`invalid_document`).
   */
  addDocument(document: KnowledgeDocumentInput): IndexedDocument {
    const split = this.split(document);
    return this.database.transaction(() => this.writeDocument(split, null))();
  }

  /** Indexes several documents in order. */
  addDocuments(documents: readonly KnowledgeDocumentInput[]): IndexedDocument[] {
    return documents.map((document) => this.addDocument(document));
  }

  /**
   * Indexes the `.md` and `.txt` files under a directory. Sources are the files' `/`-separated paths
   * relative to the directory, after `sourcePrefix`. Each file is opened with the Filesystem
   * toolkit's confined open, so what is read is checked at read time, not only at scan time: a file
   * or a parent directory swapped for a symbolic link after the scan, a FIFO or device, and a file
   * with a second hard link (whose other name may lie outside) are never read.
   *
   * What is not indexed is reported in `skipped` with the reason: hidden entries, symbolic links,
   * FIFOs and devices, unreadable subdirectories, files too large, not UTF-8, grown while read, or
   * whose source would be longer than 1024 characters. Everything is read first and written in one
   * transaction, so the index never holds half a directory. Adding the same directory (same real
   * path and `sourcePrefix`) again removes the documents of files that are gone or now skipped,
   * listed in `removed`. Throws `KnowledgeIndexError` (`document_read_failed`) only when the
   * directory itself cannot be read, before changing anything.
   */
  async addDirectory(directory: string, options: DirectoryIndexOptions = {}): Promise<DirectoryIndexReport> {
    const maxFileBytes = options.maxFileBytes ?? 5 * 1024 * 1024;
    const prefix = options.sourcePrefix ?? '';
    let scan;
    let root: string;
    try {
      root = await realpath(directory);
      scan = await collectDocumentFiles(root, options.recursive ?? true);
    } catch (error) {
      throw new KnowledgeIndexError(
        'document_read_failed',
        `Cannot read directory '${directory}': ${describe(error)}`,
        { cause: error },
      );
    }
    const skipped: { source: string; reason: string }[] = scan.skipped.map((entry) => ({
      source: `${prefix}${entry.relativePath}`,
      reason: entry.reason,
    }));
    const splits: SplitDocument[] = [];
    for (const file of scan.files) {
      const source = `${prefix}${file.relativePath}`;
      const outcome =
        source.length > MAX_SOURCE_CHARS
          ? `its path is longer than ${MAX_SOURCE_CHARS} characters`
          : await this.readDocument(root, file, source, maxFileBytes);
      if (typeof outcome === 'string') skipped.push({ source, reason: outcome });
      else splits.push(outcome);
    }
    const origin = JSON.stringify([root, prefix]);
    const { indexed, removed } = this.database.transaction(() => {
      const written = splits.map((split) => this.writeDocument(split, origin));
      const kept = new Set(written.map((document) => document.source));
      const stale = (
        this.database.prepare(`SELECT source FROM ${DOCUMENTS} WHERE origin = ? ORDER BY source`).all(origin) as {
          source: string;
        }[]
      )
        .map((row) => row.source)
        .filter((source) => !kept.has(source));
      for (const source of stale) this.removeDocumentRows(source);
      return { indexed: written, removed: stale };
    })();
    return { indexed, skipped, removed };
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
   * Ranked passages for free text. The text is reduced to quoted terms (see `toFtsMatchQuery`),
   * so FTS5 syntax in it is never parsed. Throws `KnowledgeIndexError` (`invalid_query`) when no
   * searchable term is left.
   */
  search(query: string, limit = 5): KnowledgeHit[] {
    const match = toFtsMatchQuery(query);
    if (match === undefined)
      throw new KnowledgeIndexError('invalid_query', 'The query has no searchable words (letters or digits).');
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
      .all(
        MATCH_OPEN_SENTINEL,
        MATCH_CLOSE_SENTINEL,
        snippetTokens,
        MATCH_OPEN_SENTINEL,
        MATCH_CLOSE_SENTINEL,
        match,
        bounded,
      ) as HitRow[];
    return rows.map((row, index) => ({
      rank: index + 1,
      score: -row.rank,
      source: row.source,
      title: row.title,
      heading: row.heading,
      passageIndex: Number(row.ordinal),
      snippet: renderMarkedText(row.snippet, open, close),
      passage: renderMarkedText(row.passage, open, close),
    }));
  }

  /** The markers around matches in snippets and passages (see `renderMarkedText` for how text is escaped). */
  get markers(): { readonly open: string; readonly close: string } {
    return { open: this.options.highlightOpen, close: this.options.highlightClose };
  }

  /** Closes the database when the index opened it; an injected database stays open. */
  close(): void {
    if (this.owned && this.database.open) this.database.close();
  }

  private split(document: KnowledgeDocumentInput): SplitDocument {
    const text = typeof document?.text === 'string' ? withoutSentinels(document.text) : document?.text;
    return splitDocument({ ...document, text }, this.options.maxPassageChars);
  }

  private writeDocument(split: SplitDocument, origin: string | null): IndexedDocument {
    const { source, title, format, passages } = split;
    this.removeDocumentRows(source);
    const { lastInsertRowid } = this.database
      .prepare(
        `INSERT INTO ${DOCUMENTS} (source, title, format, passage_count, indexed_at, origin) VALUES (?, ?, ?, ?, ?, ?)`,
      )
      .run(source, title, format, passages.length, Date.now(), origin);
    const insert = this.database.prepare(
      `INSERT INTO ${PASSAGES} (body, heading, title, document_id, ordinal) VALUES (?, ?, ?, ?, ?)`,
    );
    passages.forEach((passage, ordinal) => insert.run(passage.text, passage.heading, title, lastInsertRowid, ordinal));
    return { source, title, format, passageCount: passages.length };
  }

  /** One file of a directory, split into passages, or the reason it is skipped. */
  private async readDocument(
    root: string,
    file: DocumentFile,
    source: string,
    maxFileBytes: number,
  ): Promise<SplitDocument | string> {
    let bytes: Buffer | string;
    try {
      const handle = await openConfinedFile(root, file.absolutePath, file.relativePath, 'read');
      try {
        const { size } = await handle.stat();
        bytes =
          size > maxFileBytes
            ? `larger than ${maxFileBytes} bytes`
            : ((await readAtMost(handle, size)) ?? 'grew while it was read');
      } finally {
        await handle.close();
      }
    } catch (error) {
      bytes = `unreadable: ${describe(error)}`;
    }
    if (typeof bytes === 'string') return bytes;
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return 'not valid UTF-8 text';
    }
    try {
      return this.split({ source, text });
    } catch (error) {
      return `not indexable: ${describe(error)}`;
    }
  }

  private removeDocumentRows(source: string): boolean {
    const row = this.database.prepare(`SELECT id FROM ${DOCUMENTS} WHERE source = ?`).get(source) as
      { id: number } | undefined;
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
