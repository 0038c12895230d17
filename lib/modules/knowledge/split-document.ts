import { KnowledgeIndexError } from './knowledge-index-error';
import { KnowledgeDocumentFormat, KnowledgeDocumentInput } from './knowledge-types';
import { packParagraphs, splitParagraphs } from './pack-passages';
import { DocumentPassage, splitMarkdown } from './split-markdown';
import { messageOf } from '../../errors/message-of';

/** A checked document with its resolved title and format, cut into passages. */
export interface SplitDocument {
  readonly source: string;
  readonly title: string;
  readonly format: KnowledgeDocumentFormat;
  readonly passages: readonly DocumentPassage[];
}

/** Longest document source, in characters. */
export const MAX_SOURCE_CHARS = 1024;

/**
 * Checks a document, resolves its format and title, and cuts it into passages of at most `maxChars`. Throws
 * `KnowledgeIndexError` (`invalid_document`).
 */
export function splitDocument(document: KnowledgeDocumentInput, maxChars: number): SplitDocument {
  const { source, text } = document;
  if (typeof source !== 'string' || source.trim().length === 0 || source.length > MAX_SOURCE_CHARS)
    throw new KnowledgeIndexError(
      'invalid_document',
      `A document needs a non-empty source of at most ${MAX_SOURCE_CHARS} characters.`,
    );
  if (typeof text !== 'string') throw new KnowledgeIndexError('invalid_document', `Document '${source}' has no text.`);
  const format = document.format ?? (/\.(md|markdown)$/i.test(source) ? 'markdown' : 'text');
  if (format !== 'markdown' && format !== 'text')
    throw new KnowledgeIndexError(
      'invalid_document',
      `Document '${source}' has unknown format '${messageOf(format)}'.`,
    );
  if (format === 'markdown') {
    const split = splitMarkdown(text, maxChars);
    return { source, format, title: document.title ?? split.title ?? lastSegment(source), passages: split.passages };
  }
  const passages = packParagraphs(splitParagraphs(text), maxChars).map((passage) => ({ heading: '', text: passage }));
  return { source, format, title: document.title ?? lastSegment(source), passages };
}

function lastSegment(source: string): string {
  const segments = source.split(/[\\/]/).filter((segment) => segment.length > 0);
  return segments[segments.length - 1] ?? source;
}
