import { ModelToolChoice } from '../model-types';

/** A tool choice as Chat Completions `tool_choice`: `auto`, `required`, `none`, or one function by name. */
export function toChatToolChoice(choice: ModelToolChoice): string | Record<string, unknown> {
  return typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.tool } };
}

/** A tool choice as Responses `tool_choice`: `auto`, `required`, `none`, or one function by name. */
export function toResponsesToolChoice(choice: ModelToolChoice): string | Record<string, unknown> {
  return typeof choice === 'string' ? choice : { type: 'function', name: choice.tool };
}

/**
 * The output-token limit parameter (`max_completion_tokens` or `max_output_tokens`): the smaller of the client's
 * `maxTokens` and the request's `maxOutputTokens`, absent when neither is set.
 */
export function maxTokensParam(
  name: string,
  maxTokens: number | undefined,
  requested: number | undefined,
): Record<string, number> {
  const limit =
    maxTokens === undefined ? requested : requested === undefined ? maxTokens : Math.min(maxTokens, requested);
  return limit === undefined ? {} : { [name]: limit };
}
