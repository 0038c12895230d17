/** Format of a document: Markdown is split by headings and paragraphs, text by paragraphs. */
export type KnowledgeDocumentFormat = 'markdown' | 'text';

/** A document to index from a string. */
export interface KnowledgeDocumentInput {
  /** Where the document comes from (a path or a URL); the key of the document: indexing a source again replaces it. */
  readonly source: string;
  readonly text: string;
  /** @default the first level-1 heading of Markdown, else the last segment of `source` */
  readonly title?: string;
  /** @default 'markdown' when `source` ends in `.md` or `.markdown`, else 'text' */
  readonly format?: KnowledgeDocumentFormat;
}

/** What indexing one document produced. */
export interface IndexedDocument {
  readonly source: string;
  readonly title: string;
  readonly format: KnowledgeDocumentFormat;
  readonly passageCount: number;
}

/** Result of indexing a directory. */
export interface DirectoryIndexReport {
  readonly indexed: readonly IndexedDocument[];
  /** Entries left out, with the reason (hidden, a link, a FIFO, too large, not UTF-8 text, path too long, ...). */
  readonly skipped: readonly { readonly source: string; readonly reason: string }[];
  /** Sources of an earlier scan of the same directory that are gone (or now skipped), removed from the index. */
  readonly removed: readonly string[];
}

/** Options of `KnowledgeIndex.addDirectory`. */
export interface DirectoryIndexOptions {
  /** Descend into subdirectories. @default true */
  readonly recursive?: boolean;
  /** Files larger than this are skipped. @default 5242880 (5 MiB) */
  readonly maxFileBytes?: number;
  /** Prepended to each file's relative path to form its source. @default '' */
  readonly sourcePrefix?: string;
}

/** One ranked passage answering a search. */
export interface KnowledgeHit {
  /** 1-based position in the ranking. */
  readonly rank: number;
  /** Relevance from FTS5 `bm25()`, negated so that higher is better. */
  readonly score: number;
  readonly source: string;
  readonly title: string;
  /** Heading path of the passage's section; empty outside any heading. */
  readonly heading: string;
  /** 0-based position of the passage in its document. */
  readonly passageIndex: number;
  /** FTS5 `snippet()` of the passage body, matches marked; marker characters of the text escaped with a backslash. */
  readonly snippet: string;
  /** FTS5 `highlight()` of the whole passage body, matches marked and escaped likewise. */
  readonly passage: string;
}

/** Options of a {@link KnowledgeIndex}. Every field has a default. */
export interface KnowledgeIndexOptions {
  /** Largest passage, in characters. @default 1200 (allowed 200..20000) */
  readonly maxPassageChars?: number;
  /** Tokens in a `snippet()`. @default 24 (allowed 1..64) */
  readonly snippetTokens?: number;
  /**
   * Marker before a match in snippets and passages: 1 to 8 characters, no letter, digit, space or
   * backslash. Characters of the text that occur in a marker are escaped with a backslash (`\*`),
   * so a marker in the output is always a match boundary. @default '**'
   */
  readonly highlightOpen?: string;
  /** Marker after a match, likewise. @default '**' */
  readonly highlightClose?: string;
  /** Upper bound of `limit` in a search. @default 50 */
  readonly maxLimit?: number;
}
