import { ModelStopReason } from '../model-types';

/**
 * Maps a Messages API `stop_reason` to wuwe's {@link ModelStopReason}.
 *
 * `end_turn`, `tool_use`, `max_tokens`, `stop_sequence`, `refusal` and `pause_turn` keep their names;
 * `model_context_window_exceeded` is output cut off by a limit, so it becomes `max_tokens`;
 * anything else (including a missing reason) becomes `other`.
 */
export function fromAnthropicStopReason(stopReason: string | null | undefined): ModelStopReason {
  switch (stopReason) {
    case 'end_turn':
    case 'tool_use':
    case 'max_tokens':
    case 'stop_sequence':
    case 'refusal':
    case 'pause_turn':
      return stopReason;
    case 'model_context_window_exceeded':
      return 'max_tokens';
    default:
      return 'other';
  }
}
