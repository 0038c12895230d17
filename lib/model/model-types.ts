import { LlmTool } from '../contract/llm-tool';
import { JsonObject } from '../outcome/json-value';

/** A tool call the model asked for. `arguments` is the raw JSON text or the already-decoded object. */
export interface ModelToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string | JsonObject;
}

/** One message of the conversation, in wuwe's provider-neutral form. */
export type ChatMessage =
  | { readonly role: 'user'; readonly content: string }
  | { readonly role: 'assistant'; readonly content: string; readonly toolCalls: readonly ModelToolCall[] }
  | {
      readonly role: 'tool';
      readonly toolCallId: string;
      readonly toolName: string;
      /** The projected Tool message: exactly what the model sees. */
      readonly content: string;
      readonly isError: boolean;
    };

/** Why the model stopped. */
export type ModelStopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence' | 'refusal' | 'pause_turn' | 'other';

/** Token usage of one step or a whole run. */
export interface ModelUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** One request to the model. */
export interface ModelRequest {
  readonly system?: string;
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly LlmTool[];
  readonly signal: AbortSignal;
}

/** One response of the model. */
export interface ModelResponse {
  readonly text: string;
  readonly toolCalls: readonly ModelToolCall[];
  readonly stopReason: ModelStopReason;
  readonly usage: ModelUsage;
  /** The model that answered, when the API says. */
  readonly model?: string;
}
