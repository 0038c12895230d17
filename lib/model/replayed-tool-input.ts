import { JsonObject } from '../outcome/json-value';

/**
 * The input object to send back for a tool call of an earlier turn, for APIs whose tool-call input must
 * be a JSON object (Anthropic `tool_use.input`, the AI SDK's `tool-call` part).
 *
 * Arguments that are a JSON object (as text or decoded) are sent as they are. Arguments that are not
 * one (text cut at the token limit, text that is not JSON, a JSON array or scalar) were refused by the
 * runner, which answered the call with its failure (`invalid_json`, `invalid_arguments`,
 * `incomplete_tool_call`); the call is sent with the empty object `{}`, so the conversation stays valid
 * for the API and the model reads why the call did not run in its tool result. Empty text is `{}` too.
 */
export function replayedToolInput(input: unknown): JsonObject {
  let value: unknown = input;
  if (typeof value === 'string') {
    try {
      value = value.trim() === '' ? {} : JSON.parse(value);
    } catch {
      return {};
    }
  }
  return isJsonObject(value) ? value : {};
}

function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
