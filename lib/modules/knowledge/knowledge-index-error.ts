import { WuweError } from '../../errors/wuwe-error';
import { hasErrorMarker } from '../../errors/error-marker';

/** Codes of {@link KnowledgeIndexError}. */
export type KnowledgeIndexErrorCode =
  'invalid_knowledge_options' | 'invalid_document' | 'invalid_query' | 'document_read_failed';

const KNOWLEDGE_INDEX_ERROR_MARKER = Symbol.for('wuwe.error.KnowledgeIndexError');

/**
 * A knowledge index refused its configuration, a document or a query.
 * `invalid_query` is what the tool provider turns into an `invalid_arguments` failure.
 */
export class KnowledgeIndexError extends WuweError<KnowledgeIndexErrorCode> {
  private readonly [KNOWLEDGE_INDEX_ERROR_MARKER] = true;

  /** True when `value` is a KnowledgeIndexError, from this or another copy of the package. */
  static override isInstance(value: unknown): value is KnowledgeIndexError {
    return hasErrorMarker(value, KNOWLEDGE_INDEX_ERROR_MARKER);
  }

  constructor(code: KnowledgeIndexErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}
