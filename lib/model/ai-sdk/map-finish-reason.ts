import { ModelStopReason } from '../model-types';

/**
 * Maps an AI SDK finish reason (`LanguageModelV3FinishReason`, whose `unified` value is read; a bare
 * string, as older specifications sent it, is read the same) to wuwe's {@link ModelStopReason}.
 *
 * | AI SDK | wuwe |
 * |---|---|
 * | `stop` | `end_turn` |
 * | `tool-calls` | `tool_use` |
 * | `length` | `max_tokens` |
 * | `content-filter` | `refusal` |
 * | `error`, `other`, anything else | `other` |
 */
export function fromAiSdkFinishReason(finishReason: unknown): ModelStopReason {
  const unified =
    typeof finishReason === 'object' && finishReason !== null
      ? (finishReason as { unified?: unknown }).unified
      : finishReason;
  switch (unified) {
    case 'stop':
      return 'end_turn';
    case 'tool-calls':
      return 'tool_use';
    case 'length':
      return 'max_tokens';
    case 'content-filter':
      return 'refusal';
    default:
      return 'other';
  }
}
