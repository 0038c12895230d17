import { WuweError } from '../../errors/wuwe-error';

/** Codes of {@link KnowledgeIndexError}. */
export type KnowledgeIndexErrorCode = 'invalid_knowledge_options' | 'invalid_document' | 'invalid_query' | 'document_read_failed';

/**
 * A knowledge index refused its configuration, a document or a query.
 * `invalid_query` is what the tool provider turns into an `invalid_arguments` failure.
 */
export class KnowledgeIndexError extends WuweError<KnowledgeIndexErrorCode> {
  constructor(code: KnowledgeIndexErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}
