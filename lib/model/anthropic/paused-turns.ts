import { ModelStepper } from '../model-stepper';
import { AssistantChatMessage, ModelRequest, ModelResponse, ModelUsage } from '../model-types';

/**
 * The assistant message of a response, for appending to the conversation. It shares the response's
 * `toolCalls` array, which lets {@link AnthropicModelClient} recognise the turn and send it back
 * exactly as the API returned it (thinking and server tool blocks included).
 */
export function assistantMessageFromResponse(response: ModelResponse): AssistantChatMessage {
  return {
    role: 'assistant',
    content: response.text,
    toolCalls: response.toolCalls,
    ...(response.providerContent !== undefined ? { providerContent: response.providerContent } : {}),
  };
}

/** Options of {@link stepThroughPausedTurns}. */
export interface StepThroughPausedTurnsOptions {
  /**
   * The most continuation requests sent after the first; when reached, the last `pause_turn` response is returned.
   * @default 8
   */
  readonly maxContinuations?: number;
}

/** What {@link stepThroughPausedTurns} returns. */
export interface PausedTurnsResult {
  /** The last response: not `pause_turn`, unless `maxContinuations` was reached. */
  readonly response: ModelResponse;
  /** The paused assistant turns, in order: append them to the conversation before `response`'s own turn. */
  readonly pausedTurns: readonly AssistantChatMessage[];
  /** Token usage summed over every request sent. */
  readonly usage: ModelUsage;
}

/**
 * Steps once and, while the model answers `pause_turn`, continues the turn.
 *
 * `pause_turn` means the API paused a long-running turn (typically one running server tools) and the
 * model has not finished. A loop continues it by sending the paused assistant turn back, as the last
 * message and unchanged, and asking again; no new user message is added. The next response continues
 * the same turn. This helper does that with `stepper.step`, stopping on any other stop reason, on an
 * error (thrown as is), or after `maxContinuations` continuations.
 */
export async function stepThroughPausedTurns(
  stepper: ModelStepper,
  request: ModelRequest,
  options: StepThroughPausedTurnsOptions = {},
): Promise<PausedTurnsResult> {
  const maxContinuations = options.maxContinuations ?? 8;
  const pausedTurns: AssistantChatMessage[] = [];
  let response = await stepper.step(request);
  let usage = response.usage;
  while (response.stopReason === 'pause_turn' && pausedTurns.length < maxContinuations) {
    pausedTurns.push(assistantMessageFromResponse(response));
    response = await stepper.step({ ...request, messages: [...request.messages, ...pausedTurns] });
    const cached = (usage.cachedInputTokens ?? 0) + (response.usage.cachedInputTokens ?? 0);
    usage = {
      inputTokens: usage.inputTokens + response.usage.inputTokens,
      outputTokens: usage.outputTokens + response.usage.outputTokens,
      ...(cached > 0 ? { cachedInputTokens: cached } : {}),
    };
  }
  return { response, pausedTurns, usage };
}
