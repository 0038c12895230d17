import type { UIMessage, UIMessageChunk } from 'ai';
import type { ModelUsage } from '../model/model-types';
import type { LlmAgentStopReason } from '../runner/run-result';

/**
 * The metadata a wuwe UI message carries: the run's id from the first chunk (`start`), and the run's stop reason,
 * usage and step count from its last (`finish`).
 */
export interface WuweUIMessageMetadata {
  readonly runId: string;
  readonly stopReason?: LlmAgentStopReason;
  readonly usage?: ModelUsage;
  readonly steps?: number;
}

/** A UI message of a wuwe run (the AI SDK's `UIMessage` with {@link WuweUIMessageMetadata}). */
export type WuweUIMessage = UIMessage<WuweUIMessageMetadata>;

/** A chunk of the AI SDK 6 UI message stream a wuwe run is told as. */
export type WuweUIMessageChunk = UIMessageChunk<WuweUIMessageMetadata>;
