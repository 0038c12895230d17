import type { ModelResponse } from '../model/model-types';

/**
 * The reasoning texts of a step's response, from its provider content: the AI SDK client's `reasoning` blocks and
 * Anthropic's `thinking` blocks (redacted thinking has no text and is left out). wuwe's stream carries no
 * reasoning deltas, so a step's reasoning is told whole, once the step's response is in.
 */
export function reasoningOfResponse(response: ModelResponse | undefined): string[] {
  const blocks = response?.providerContent?.blocks ?? [];
  const texts: string[] = [];
  for (const block of blocks) {
    if (typeof block !== 'object' || block === null || Array.isArray(block)) continue;
    const text = block.type === 'reasoning' ? block.text : block.type === 'thinking' ? block.thinking : undefined;
    if (typeof text === 'string' && text.length > 0) texts.push(text);
  }
  return texts;
}
