import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js' with { 'resolution-mode': 'import' };
import { renderableFailure } from '../outcome/render-tool-message';
import { ToolCallResult } from '../runner/run-result';

/**
 * The MCP answer to `tools/call` from the runner's result of the call.
 *
 * - `content` is one text block: the Tool message a model would see (projected within the ceilings),
 *   then its `parts`: `image` blocks for the images of the outcome, `text` blocks for notes about omitted ones.
 * - A success whose `data` is a JSON object also answers it as `structuredContent`.
 * - A failure has `isError: true`; its text is the `{"ok":false,"error":{...}}` object, which is also
 *   the `structuredContent` unless the tool advertises an `outputSchema` (clients validate
 *   `structuredContent` against it even on errors, and the failure object does not match it).
 */
export function toMcpCallToolResult(result: ToolCallResult, advertisesOutputSchema: boolean): CallToolResult {
  const content: CallToolResult['content'] = [{ type: 'text' as const, text: result.content }];
  for (const part of result.parts ?? [])
    content.push(
      part.type === 'image'
        ? { type: 'image', data: part.data, mimeType: part.mediaType }
        : { type: 'text', text: part.text },
    );
  const outcome = result.outcome;
  if (outcome.ok) {
    const data = outcome.data;
    return isJsonObject(data) ? { content, structuredContent: data } : { content };
  }
  const failure = renderableFailure(outcome);
  return advertisesOutputSchema ? { content, isError: true } : { content, isError: true, structuredContent: failure };
}

/** True for a plain JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
