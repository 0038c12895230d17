import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js' with { 'resolution-mode': 'import' };
import { ToolErrorCategory, TOOL_ERROR_CATEGORIES } from '../outcome/error-codes';
import { JsonValue } from '../outcome/json-value';
import { ToolImage, toolImageProblem } from '../outcome/tool-image';
import { toolData, toolFailure, ToolOutcome, toolText } from '../outcome/tool-outcome';
import { isJsonObject } from './mcp-call-result';

/**
 * The outcome of an MCP `tools/call` result.
 * - A success with `structuredContent` is its data (the runner validates it against the tool's
 *   `outputSchema`); otherwise the text blocks joined by newlines (other blocks are named by type).
 *   Its `image` blocks of a PNG, JPEG, GIF or WebP with well-formed base64 become the outcome's
 *   `images` (the model sees them where its client can send images in tool results); others are only named.
 * - An `isError` result is a failure: the `{ok:false,error}` object a wuwe server sends (in
 *   `structuredContent` or as the text) keeps its code, category and retryability; any other
 *   error is `tool_error` with the server's text.
 */
export function outcomeFromMcpResult(result: CallToolResult): ToolOutcome {
  const text = textOf(result);
  if (result.isError !== true) {
    const images = imagesOf(result);
    const extra = images.length === 0 ? undefined : { images };
    return isJsonObject(result.structuredContent)
      ? toolData(result.structuredContent as JsonValue, extra)
      : toolText(text, extra);
  }
  const failure = wuweFailureOf(result.structuredContent) ?? wuweFailureOf(parseJson(text));
  return (
    failure ??
    toolFailure({
      code: 'tool_error',
      category: 'internal',
      retryable: false,
      message: text === '' ? 'the MCP tool failed without a message' : text,
    })
  );
}

/** The well-formed images among the result's `image` blocks, in order. */
function imagesOf(result: CallToolResult): ToolImage[] {
  return result.content.flatMap((block) => {
    if (block.type !== 'image') return [];
    const image = { mediaType: block.mimeType, data: block.data };
    return toolImageProblem(image) === undefined ? [image as ToolImage] : [];
  });
}

function textOf(result: CallToolResult): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('\n');
}

function parseJson(text: string): unknown {
  if (!text.startsWith('{"ok":false')) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A `{ok:false, error:{code, category, message, retryable[, details]}}` object, as wuwe renders failures. */
function wuweFailureOf(value: unknown): ToolOutcome | undefined {
  if (!isJsonObject(value) || value.ok !== false || !isJsonObject(value.error)) return undefined;
  const { code, category, message, retryable, details } = value.error;
  if (typeof code !== 'string' || typeof message !== 'string' || typeof retryable !== 'boolean') return undefined;
  if (!(TOOL_ERROR_CATEGORIES as readonly unknown[]).includes(category)) return undefined;
  return toolFailure({
    code,
    category: category as ToolErrorCategory,
    message,
    retryable,
    ...(details === undefined ? {} : { details: details as JsonValue }),
  });
}
