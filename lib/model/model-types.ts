import { JsonSchema } from '../contract/json-schema';
import { LlmTool } from '../contract/llm-tool';
import { JsonObject, JsonValue } from '../outcome/json-value';

/** A tool call the model asked for. `arguments` is the raw JSON text or the already-decoded object. */
export interface ModelToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string | JsonObject;
  /**
   * Set by a client whose provider had to send every property of the tool's input (OpenAI strict
   * function calling makes every property required, optional ones nullable). The runner then reads a
   * `null` sent for an optional property (one not in its object's `required`, whose own schema does not
   * accept `null`) as "absent" and removes it before validating against the tool's schema. A `null`
   * for a required property is still refused. Other clients leave it unset: `null` is then just a value.
   * @default false
   */
  readonly nullsAreAbsent?: boolean;
}

/**
 * A provider's own content of an assistant turn, as its API returned it (for Anthropic: the content blocks,
 * thinking blocks with their signatures included). Opaque to the runner: it is stored with the message in a
 * durable run and handed back to the provider's client, which sends it back unchanged, in any process.
 */
export interface ProviderContent {
  /** Which client wrote it, e.g. `anthropic`; other clients ignore it. */
  readonly provider: string;
  readonly blocks: readonly JsonValue[];
}

/**
 * A part of a user message: text, an image, or a document. Media come inline (`data`, base64) or by
 * `url`; which media types a model accepts is the provider's (Anthropic: JPEG, PNG, GIF and WebP
 * images; PDF and plain-text documents). A client that cannot send a part refuses the request
 * (`ModelApiError` `invalid_request`) rather than dropping it.
 */
export type UserContentPart =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image'; readonly mediaType: string; readonly data: string }
  | { readonly type: 'image'; readonly url: string }
  | { readonly type: 'document'; readonly mediaType: string; readonly data: string; readonly title?: string }
  | { readonly type: 'document'; readonly url: string; readonly title?: string };

/**
 * A part of a Tool message beyond its text `content`: an image of the outcome (see `ToolOutcome.images`),
 * or a short text note (e.g. that an image over the run's `toolImages` limits was omitted). Each client
 * sends them as its provider allows (see the README's client table).
 */
export type ToolMessagePart =
  | { readonly type: 'image'; readonly mediaType: string; readonly data: string }
  | { readonly type: 'text'; readonly text: string };

/**
 * One message of the conversation, in wuwe's provider-neutral form. A user message is text, or parts (text, images,
 * documents).
 */
export type ChatMessage =
  | { readonly role: 'user'; readonly content: string | readonly UserContentPart[] }
  | {
      readonly role: 'assistant';
      readonly content: string;
      readonly toolCalls: readonly ModelToolCall[];
      readonly providerContent?: ProviderContent;
      /**
       * The token usage of the model response this message is, recorded by runs with a token or cost `budget`
       * so that a resumed run continues the budget from its record. Clients do not send it.
       */
      readonly usage?: ModelUsage;
    }
  | {
      readonly role: 'tool';
      readonly toolCallId: string;
      readonly toolName: string;
      /** The projected Tool message: exactly what the model sees. */
      readonly content: string;
      readonly isError: boolean;
      /** Images (and notes about omitted ones) sent after `content`; absent when the outcome had none. */
      readonly parts?: readonly ToolMessagePart[];
    };

/** An assistant turn of the conversation. */
export type AssistantChatMessage = Extract<ChatMessage, { role: 'assistant' }>;

/** A Tool message of the conversation: a tool's projected answer. */
export type ToolChatMessage = Extract<ChatMessage, { role: 'tool' }>;

/** Why the model stopped. */
export type ModelStopReason =
  'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence' | 'refusal' | 'pause_turn' | 'other';

/** Token usage of one step or a whole run. */
export interface ModelUsage {
  /** Every input token of the request, cached or not. */
  readonly inputTokens: number;
  readonly outputTokens: number;
  /**
   * The part of `inputTokens` read from the provider's prompt cache (priced with a model price's
   * `cachedInputUsdPerMillionTokens`); absent when the provider does not say.
   */
  readonly cachedInputTokens?: number;
}

/**
 * Asks for the model's final text to be a JSON value matching `schema`, through the provider's native
 * structured output (Anthropic `output_config.format`, OpenAI `response_format` / `text.format`, AI SDK
 * `responseFormat`). Only sent to a client whose `supportsResponseFormat` accepts it.
 */
export interface ModelResponseFormat {
  readonly type: 'json_schema';
  /** A name for the schema (OpenAI requires one), e.g. `final_answer`. */
  readonly name: string;
  /** The JSON Schema of the answer, as wuwe builds it (a client rewrites it to its provider's rules). */
  readonly schema: JsonSchema;
  readonly description?: string;
}

/**
 * Which tools the model may or must call in one request: `auto` (the model decides), `required` (at least one
 * tool), `none` (no tool; the tools stay in the request) or `{ tool }` (that one tool). Each client sends it in its
 * provider's form (Anthropic `tool_choice` `auto`/`any`/`none`/`tool`, OpenAI `tool_choice`, AI SDK `toolChoice`).
 */
export type ModelToolChoice = 'auto' | 'required' | 'none' | { readonly tool: string };

/** One request to the model. */
export interface ModelRequest {
  readonly system?: string;
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly LlmTool[];
  readonly signal: AbortSignal;
  /** The shape of the final text (native structured output); tools stay available. @default none: free text */
  readonly responseFormat?: ModelResponseFormat;
  /**
   * Which tools the model may or must call; only sent to a client whose `supportsToolChoice` accepts it.
   * @default none: the provider's default (`auto`)
   */
  readonly toolChoice?: ModelToolChoice;
  /**
   * The most output tokens this request may produce (a run's budget sets it): a client sends the smaller of it and
   * its own limit. @default none: the client's own limit
   */
  readonly maxOutputTokens?: number;
}

/** One response of the model. */
export interface ModelResponse {
  readonly text: string;
  readonly toolCalls: readonly ModelToolCall[];
  readonly stopReason: ModelStopReason;
  readonly usage: ModelUsage;
  /** The model that answered, when the API says. */
  readonly model?: string;
  /** Content the provider needs back exactly as it came (see {@link ProviderContent}); only when the turn has some. */
  readonly providerContent?: ProviderContent;
}
