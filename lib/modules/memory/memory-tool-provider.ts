import { createHash, randomUUID } from 'node:crypto';
import { NO_CAPABILITIES } from '../../contract/defaults';
import { ToolDescriptor } from '../../contract/tool-descriptor';
import { JsonObject } from '../../outcome/json-value';
import { toolData, toolFailure, ToolOutcome } from '../../outcome/tool-outcome';
import { ToolInvocation } from '../../providers/tool-invocation';
import { ToolProvider, ToolProviderCapabilities } from '../../providers/tool-provider';
import { checkToolArguments } from '../knowledge/check-tool-arguments';
import { directInvocation } from '../knowledge/direct-invocation';
import { MemoryModuleError } from './memory-module-error';
import {
  forgetDescriptor,
  MEMORY_TOOL_NAMES,
  MemoryToolLimits,
  recallDescriptor,
  rememberDescriptor,
} from './memory-tools';
import { NoteStore } from './note-store';
import { InMemoryNoteStore } from './sqlite-note-store';
import { resolveMemoryToolOptions } from './resolve-memory-tool-options';
import { messageOf } from '../../errors/message-of';

/** Options of a {@link MemoryToolProvider}. */
export interface MemoryToolProviderOptions {
  /** Where notes live. @default a new `InMemoryNoteStore` (lost when the process ends) */
  readonly store?: NoteStore;
  /** Notes of other namespaces are invisible to this provider. @default 'default' */
  readonly namespace?: string;
  /** Offer `memory_forget`. @default true */
  readonly allowForget?: boolean;
  /** Longest note text. @default 4000 */
  readonly maxTextChars?: number;
  /** Most tags on a note or in a recall filter. @default 16 */
  readonly maxTags?: number;
  /** Notes recalled when the model gives no `limit`. @default 5 */
  readonly defaultLimit?: number;
  /** Largest `limit` the model may ask for. @default 20 */
  readonly maxLimit?: number;
}

/**
 * Memory tools that outlive a run: `memory_remember` (write), `memory_recall` (read, full-text
 * ranked by FTS5) and, unless disabled, `memory_forget` (destructive). Only `memory_remember`
 * consumes something from the invocation, the idempotency key, and only it declares a capability.
 */
export class MemoryToolProvider implements ToolProvider {
  /** The note store; shared by every provider built on it. */
  readonly store: NoteStore;
  /** The namespace this provider reads and writes. */
  readonly namespace: string;
  private readonly limits: MemoryToolLimits;
  private readonly descriptors: readonly ToolDescriptor[];

  /** Throws `MemoryModuleError` (`invalid_memory_options`) for impossible limits or an empty namespace. */
  constructor(options: MemoryToolProviderOptions = {}) {
    const resolved = resolveMemoryToolOptions(options);
    this.store = options.store ?? new InMemoryNoteStore();
    this.namespace = resolved.namespace;
    this.limits = resolved;
    const descriptors = [rememberDescriptor(this.limits), recallDescriptor(this.limits)];
    if (resolved.allowForget) descriptors.push(forgetDescriptor());
    this.descriptors = Object.freeze(descriptors);
  }

  /** The memory tools' descriptors. */
  listTools(): readonly ToolDescriptor[] {
    return this.descriptors;
  }

  /** `memory_remember` consumes the idempotency key; the other tools consume nothing beyond their arguments. */
  capabilities(toolName: string): ToolProviderCapabilities {
    return toolName === MEMORY_TOOL_NAMES.remember ? { ...NO_CAPABILITIES, idempotencyKey: true } : NO_CAPABILITIES;
  }

  /**
   * Legacy form for hosts calling the provider directly: no idempotency key, no heartbeats; the
   * contract's timeout is a deadline the caller enforces.
   */
  invoke(toolName: string, args: JsonObject, signal?: AbortSignal): Promise<ToolOutcome> {
    return this.invokeTool(directInvocation(this, toolName, args, signal));
  }

  /** Runs one memory tool; bad input becomes an `invalid_arguments` failure, a store error a `tool_error` failure. */
  async invokeTool(invocation: ToolInvocation): Promise<ToolOutcome> {
    const descriptor = this.descriptors.find((candidate) => candidate.name === invocation.toolName);
    if (descriptor === undefined)
      return toolFailure({ code: 'unknown_tool', message: `This provider has no tool '${invocation.toolName}'.` });
    const checked = checkToolArguments(descriptor, invocation.arguments);
    if (!checked.ok) return checked.failure;
    try {
      if (descriptor.name === MEMORY_TOOL_NAMES.remember)
        return await this.remember(checked.value, invocation.idempotencyKey);
      if (descriptor.name === MEMORY_TOOL_NAMES.recall) return await this.recall(checked.value);
      return await this.forget(checked.value);
    } catch (error) {
      if (MemoryModuleError.isInstance(error) && (error.code === 'invalid_note' || error.code === 'invalid_query'))
        return toolFailure({ code: 'invalid_arguments', message: error.message });
      return toolFailure({ code: 'tool_error', message: `${descriptor.name} failed: ${messageOf(error)}` });
    }
  }

  private async remember(args: JsonObject, idempotencyKey: string | undefined): Promise<ToolOutcome> {
    const key = (args.key as string | undefined) ?? derivedKey(idempotencyKey);
    const tags = (args.tags as string[] | undefined) ?? [];
    const { note, status } = await this.store.remember({
      namespace: this.namespace,
      key,
      text: args.text as string,
      tags,
    });
    return toolData({ key: note.key, version: note.version, status });
  }

  private async recall(args: JsonObject): Promise<ToolOutcome> {
    const query = args.query as string;
    const matches = await this.store.recall({
      namespace: this.namespace,
      query,
      limit: (args.limit as number | undefined) ?? this.limits.defaultLimit,
      tags: args.tags as string[] | undefined,
    });
    const notes = matches.map((match) => ({
      key: match.key,
      text: match.text,
      tags: [...match.tags],
      score: match.score,
      updatedAt: new Date(match.updatedAtMs).toISOString(),
    }));
    return toolData({ query, notes });
  }

  private async forget(args: JsonObject): Promise<ToolOutcome> {
    const key = args.key as string;
    const forgotten = await this.store.forget(this.namespace, key);
    return toolData({ key, forgotten });
  }
}

/** A key for a note given without one: derived from the idempotency key (so retries hit the same note), else random. */
function derivedKey(idempotencyKey: string | undefined): string {
  if (idempotencyKey === undefined) return `note-${randomUUID()}`;
  return `note-${createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 32)}`;
}
