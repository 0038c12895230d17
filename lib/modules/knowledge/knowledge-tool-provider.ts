import { NO_CAPABILITIES } from '../../contract/defaults';
import { ToolDescriptor } from '../../contract/tool-descriptor';
import { JsonObject, JsonValue } from '../../outcome/json-value';
import { toolData, toolFailure, ToolOutcome } from '../../outcome/tool-outcome';
import { ToolInvocation } from '../../providers/tool-invocation';
import { ToolProvider, ToolProviderCapabilities } from '../../providers/tool-provider';
import { checkToolArguments } from './check-tool-arguments';
import { directInvocation } from './direct-invocation';
import { KnowledgeIndex } from './knowledge-index';
import { KnowledgeIndexError } from './knowledge-index-error';
import { KNOWLEDGE_SEARCH_TOOL, knowledgeSearchDescriptor } from './knowledge-search-tool';
import { messageOf } from '../../errors/message-of';

/** Options of a {@link KnowledgeToolProvider}. */
export interface KnowledgeToolProviderOptions {
  /** The index searched. @default a new in-memory index */
  readonly index?: KnowledgeIndex;
  /** Passages returned when the model gives no `limit`. @default 5 */
  readonly defaultLimit?: number;
  /** Largest `limit` the model may ask for. @default 20 */
  readonly maxLimit?: number;
}

/**
 * Offers `knowledge_search` over a {@link KnowledgeIndex}: a read-only, idempotent tool that
 * answers ranked passages with their sources. It consumes nothing from the invocation beyond its
 * arguments, so it declares no advanced capabilities.
 */
export class KnowledgeToolProvider implements ToolProvider {
  /** The index this provider searches; add documents to it directly. */
  readonly index: KnowledgeIndex;
  private readonly defaultLimit: number;
  private readonly descriptor: ToolDescriptor;

  /**
   * Throws `KnowledgeIndexError` (`invalid_knowledge_options`) for limits that are not integers with 1 <= defaultLimit
   * <= maxLimit <= 100.
   */
  constructor(options: KnowledgeToolProviderOptions = {}) {
    this.index = options.index ?? new KnowledgeIndex();
    const maxLimit = options.maxLimit ?? 20;
    this.defaultLimit = options.defaultLimit ?? Math.min(5, maxLimit);
    if (
      !Number.isSafeInteger(maxLimit) ||
      !Number.isSafeInteger(this.defaultLimit) ||
      this.defaultLimit < 1 ||
      this.defaultLimit > maxLimit ||
      maxLimit > 100
    )
      throw new KnowledgeIndexError(
        'invalid_knowledge_options',
        'Limits must be integers with 1 <= defaultLimit <= maxLimit <= 100.',
      );
    this.descriptor = knowledgeSearchDescriptor(this.defaultLimit, maxLimit, this.index.markers);
  }

  /** The `knowledge_search` descriptor. */
  listTools(): readonly ToolDescriptor[] {
    return [this.descriptor];
  }

  /** None: the search needs only its arguments. */
  capabilities(_toolName: string): ToolProviderCapabilities {
    return NO_CAPABILITIES;
  }

  /**
   * Legacy form for hosts calling the provider directly: no idempotency key, no heartbeats; the
   * contract's timeout is a deadline the caller enforces.
   */
  invoke(toolName: string, args: JsonObject, signal?: AbortSignal): ToolOutcome {
    return this.invokeTool(directInvocation(this, toolName, args, signal));
  }

  /** Runs a search; bad arguments and queries without searchable words become `invalid_arguments` failures. */
  invokeTool(invocation: ToolInvocation): ToolOutcome {
    if (invocation.toolName !== KNOWLEDGE_SEARCH_TOOL)
      return toolFailure({ code: 'unknown_tool', message: `This provider has no tool '${invocation.toolName}'.` });
    const checked = checkToolArguments(this.descriptor, invocation.arguments);
    if (!checked.ok) return checked.failure;
    const query = checked.value.query as string;
    const limit = (checked.value.limit as number | undefined) ?? this.defaultLimit;
    try {
      const hits = this.index.search(query, limit);
      return toolData({ query, hits: hits as unknown as JsonValue[] });
    } catch (error) {
      if (KnowledgeIndexError.isInstance(error) && error.code === 'invalid_query')
        return toolFailure({
          code: 'invalid_arguments',
          message: error.message,
          details: { issues: [{ pointer: '/query', message: error.message }] },
        });
      const busy =
        typeof error === 'object' &&
        error !== null &&
        messageOf((error as { code?: unknown }).code).startsWith('SQLITE_BUSY');
      const message = messageOf(error);
      return toolFailure({ code: busy ? 'unavailable' : 'tool_error', message: `Knowledge search failed: ${message}` });
    }
  }
}
