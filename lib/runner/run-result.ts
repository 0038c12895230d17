import { ChatMessage, ModelUsage } from '../model/model-types';
import { JsonObject } from '../outcome/json-value';
import { ToolOutcome } from '../outcome/tool-outcome';

/** Why a run ended. */
export type LlmAgentStopReason =
  | 'end_turn'
  | 'max_steps'
  | 'aborted'
  | 'max_tokens'
  | 'stop_sequence'
  | 'refusal'
  | 'awaiting_approval'
  | 'other';

/** One tool call of a run with its complete outcome. */
export interface ToolCallRecord {
  readonly callId: string;
  readonly toolName: string;
  /** The arguments as the model sent them. */
  readonly rawArguments: string | JsonObject;
  /** The parsed and validated arguments, when they were valid. */
  readonly arguments?: JsonObject;
  /** The complete outcome (never truncated). */
  readonly outcome: ToolOutcome;
  /** Attempts made (0 when refused before dispatch). */
  readonly attempts: number;
  readonly idempotencyKey: string;
  /** The Tool message the model saw. */
  readonly content: string;
  readonly durationMs: number;
}

/** The result of `complete()`. */
export interface LlmAgentRunResult {
  readonly runId: string;
  /** The model's final text. */
  readonly text: string;
  /** The full message history, prompt first. */
  readonly messages: readonly ChatMessage[];
  readonly toolCalls: readonly ToolCallRecord[];
  readonly usage: ModelUsage;
  readonly stopReason: LlmAgentStopReason;
  /** Model requests made. */
  readonly steps: number;
}
