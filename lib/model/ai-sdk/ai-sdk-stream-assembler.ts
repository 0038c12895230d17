import type { LanguageModelV3StreamPart, SharedV3ProviderMetadata } from '@ai-sdk/provider';
import { ModelApiError } from '../model-api-error';
import { ModelStreamEvent } from '../model-stream';
import { ModelResponse, ModelUsage } from '../model-types';
import {
  aiSdkProviderContent,
  AssistantPromptPart,
  decodeInput,
  toAssistantPromptPart,
} from './ai-sdk-provider-content';
import { fromStreamErrorValue, toAiSdkModelApiError } from './map-api-error';
import { isRecord, responseFromParts, usageOf } from './map-response';

type Entry =
  | { readonly kind: 'text' | 'reasoning'; readonly id: string; text: string; metadata?: SharedV3ProviderMetadata }
  | {
      readonly kind: 'tool';
      readonly id: string;
      readonly toolName: string;
      readonly providerExecuted: boolean;
      input: string;
      /** True once its `tool-call` part came: the call is whole. */
      complete?: boolean;
      metadata?: SharedV3ProviderMetadata;
    }
  | { readonly kind: 'part'; readonly part: AssistantPromptPart };

/**
 * Builds one streamed step from `LanguageModelV3StreamPart`s: {@link accept} turns each part into
 * the wuwe stream events it means, {@link finish} returns the whole {@link ModelResponse}, exactly as
 * `doGenerate` would have been mapped.
 *
 * - `text-delta` parts are `text_delta` events; text of several text blocks is joined in order;
 * - a client-executed tool call is `tool_call_started` (at `tool-input-start`, or at its `tool-call`
 *   part when the provider did not stream its input) then `tool_call_delta` per piece of its JSON
 *   input; its `index` is its position in the response's `toolCalls`; the final `tool-call` part's
 *   input wins over the pieces;
 * - reasoning, provider-executed tools, files and every part's provider metadata are collected into
 *   the parts kept in `providerContent`, in the order they started;
 * - a call started twice, or whose `tool-call` part comes twice, is a `malformed_response` (each
 *   started call is one call of the response, under its own id);
 * - an `error` part is thrown as a {@link ModelApiError}.
 */
export class AiSdkStreamAssembler {
  private readonly entries: Entry[] = [];
  private readonly open = new Map<string, Entry>();
  private nextToolIndex = 0;
  private readonly toolIndex = new Map<string, number>();
  private finishReason: unknown;
  private usage: ModelUsage = { inputTokens: 0, outputTokens: 0 };
  private modelId: string | undefined;
  private finished = false;

  constructor(private readonly provider: string) {}

  /**
   * The wuwe events of one stream part.
   *
   * @throws {@link ModelApiError} for an `error` part, or a part that is not a stream part.
   */
  accept(value: unknown): ModelStreamEvent[] {
    if (!isRecord(value) || typeof value.type !== 'string')
      throw this.malformed('the stream sent a part without a `type`');
    const part = value as LanguageModelV3StreamPart;
    switch (part.type) {
      case 'text-start':
      case 'reasoning-start':
        this.start(
          { kind: part.type === 'text-start' ? 'text' : 'reasoning', id: part.id, text: '' },
          part.providerMetadata,
        );
        return [];
      case 'text-delta':
      case 'reasoning-delta': {
        const entry = this.textEntry(part.type === 'text-delta' ? 'text' : 'reasoning', part.id);
        entry.text += part.delta;
        entry.metadata = merge(entry.metadata, part.providerMetadata);
        return part.type === 'text-delta' && part.delta.length > 0 ? [{ type: 'text_delta', text: part.delta }] : [];
      }
      case 'text-end':
      case 'reasoning-end': {
        const entry = this.textEntry(part.type === 'text-end' ? 'text' : 'reasoning', part.id);
        entry.metadata = merge(entry.metadata, part.providerMetadata);
        return [];
      }
      case 'tool-input-start':
        return this.startTool(part.id, part.toolName, part.providerExecuted === true, part.providerMetadata);
      case 'tool-input-delta': {
        const entry = this.open.get(part.id);
        if (entry?.kind !== 'tool')
          throw this.malformed(`the stream sent input for tool call '${part.id}' before it started`);
        entry.input += part.delta;
        const index = this.toolIndex.get(part.id);
        return index === undefined || part.delta.length === 0
          ? []
          : [{ type: 'tool_call_delta', index, argumentsDelta: part.delta }];
      }
      case 'tool-call':
        return this.completeTool(
          part.toolCallId,
          part.toolName,
          part.input,
          part.providerExecuted === true,
          part.providerMetadata,
        );
      case 'tool-result':
      case 'file': {
        const promptPart = toAssistantPromptPart(part);
        if (promptPart !== undefined) this.entries.push({ kind: 'part', part: promptPart });
        return [];
      }
      case 'response-metadata':
        if (typeof part.modelId === 'string' && part.modelId.length > 0) this.modelId = part.modelId;
        return [];
      case 'finish':
        this.finishReason = part.finishReason;
        this.usage = usageOf(part.usage, (detail) => this.malformed(detail));
        this.finished = true;
        return [];
      case 'error':
        throw toAiSdkModelApiError(part.error, this.provider) ?? fromStreamErrorValue(part.error, this.provider);
      default:
        return [];
    }
  }

  /**
   * The whole response of the stream.
   *
   * @throws {@link ModelApiError} `malformed_response` when the stream ended without a `finish` part.
   */
  finish(): ModelResponse {
    if (!this.finished) throw this.malformed('the stream ended without a `finish` part');
    const parts = this.entries.flatMap((entry): AssistantPromptPart[] => {
      const providerOptions =
        entry.kind !== 'part' && entry.metadata !== undefined ? { providerOptions: entry.metadata } : {};
      switch (entry.kind) {
        case 'part':
          return [entry.part];
        case 'text':
          return entry.text.length > 0 || entry.metadata !== undefined
            ? [{ type: 'text', text: entry.text, ...providerOptions }]
            : [];
        case 'reasoning':
          return [{ type: 'reasoning', text: entry.text, ...providerOptions }];
        case 'tool':
          return [
            {
              type: 'tool-call',
              toolCallId: entry.id,
              toolName: entry.toolName,
              input: decodeInput(entry.input),
              ...(entry.providerExecuted ? { providerExecuted: true } : {}),
              ...providerOptions,
            },
          ];
      }
    });
    const response = responseFromParts(parts, this.finishReason, this.usage, this.modelId);
    const providerContent = aiSdkProviderContent(parts);
    return providerContent === undefined ? response : { ...response, providerContent };
  }

  private start(entry: Entry & { id: string }, metadata: SharedV3ProviderMetadata | undefined): void {
    if (entry.kind !== 'part') entry.metadata = merge(undefined, metadata);
    this.entries.push(entry);
    this.open.set(`${entry.kind}:${entry.id}`, entry);
    if (entry.kind === 'tool') this.open.set(entry.id, entry);
  }

  /** The text or reasoning block `id`; a delta without a start opens the block. */
  private textEntry(kind: 'text' | 'reasoning', id: string): Extract<Entry, { kind: 'text' | 'reasoning' }> {
    const found = this.open.get(`${kind}:${id}`);
    if (found?.kind === kind) return found;
    const entry: Extract<Entry, { kind: 'text' | 'reasoning' }> = { kind, id, text: '' };
    this.start(entry, undefined);
    return entry;
  }

  private startTool(
    id: string,
    toolName: string,
    providerExecuted: boolean,
    metadata: SharedV3ProviderMetadata | undefined,
  ): ModelStreamEvent[] {
    if (this.open.has(id)) throw this.malformed(`the stream started tool call '${id}' twice`);
    this.start({ kind: 'tool', id, toolName, providerExecuted, input: '' }, metadata);
    if (providerExecuted) return [];
    const index = this.nextToolIndex++;
    this.toolIndex.set(id, index);
    return [{ type: 'tool_call_started', index, id, name: toolName }];
  }

  private completeTool(
    id: string,
    toolName: string,
    input: string,
    providerExecuted: boolean,
    metadata: SharedV3ProviderMetadata | undefined,
  ): ModelStreamEvent[] {
    const events: ModelStreamEvent[] = [];
    let entry = this.open.get(id);
    if (entry === undefined) {
      events.push(...this.startTool(id, toolName, providerExecuted, undefined));
      entry = this.open.get(id)!;
      const index = this.toolIndex.get(id);
      if (index !== undefined && input.length > 0)
        events.push({ type: 'tool_call_delta', index, argumentsDelta: input });
    }
    if (entry.kind !== 'tool' || entry.complete === true)
      throw this.malformed(`the stream sent tool call '${id}' twice`);
    entry.complete = true;
    entry.input = input;
    entry.metadata = merge(entry.metadata, metadata);
    return events;
  }

  private malformed(detail: string): ModelApiError {
    return new ModelApiError('malformed_response', { provider: this.provider, detail, retryable: false });
  }
}

/** Provider metadata of several parts of one block, merged per provider (later values win). */
function merge(
  base: SharedV3ProviderMetadata | undefined,
  next: SharedV3ProviderMetadata | undefined,
): SharedV3ProviderMetadata | undefined {
  if (next === undefined || Object.keys(next).length === 0) return base;
  const merged: SharedV3ProviderMetadata = { ...base };
  for (const [provider, values] of Object.entries(next)) merged[provider] = { ...merged[provider], ...values };
  return merged;
}
