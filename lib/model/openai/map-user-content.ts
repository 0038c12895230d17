import { ModelApiError } from '../model-api-error';
import { ToolChatMessage, ToolMessagePart, UserContentPart } from '../model-types';

/** A part's inline data as a `data:` URL. */
function dataUrl(mediaType: string, data: string): string {
  return `data:${mediaType};base64,${data}`;
}

function unsupported(what: string): ModelApiError {
  return new ModelApiError('invalid_request', {
    provider: 'openai',
    detail: `${what} cannot be sent to this API`,
    retryable: false,
  });
}

/**
 * A user message's content for Chat Completions: text as is; parts as `text`, `image_url` (a URL or a
 * `data:` URL) and `file` (inline documents as a `data:` URL).
 *
 * @throws {@link ModelApiError} `invalid_request` for a document given by URL (Chat Completions takes inline files
 * only); nothing is sent.
 */
export function toChatUserContent(content: string | readonly UserContentPart[]): unknown {
  if (typeof content === 'string') return content;
  return content.map((part) => {
    if (part.type === 'text') return { type: 'text', text: part.text };
    if (part.type === 'image')
      return { type: 'image_url', image_url: { url: 'url' in part ? part.url : dataUrl(part.mediaType, part.data) } };
    if ('url' in part) throw unsupported('a document given by URL');
    return {
      type: 'file',
      file: { file_data: dataUrl(part.mediaType, part.data), filename: part.title ?? 'document' },
    };
  });
}

/**
 * A user message's content for the Responses API: text as is; parts as `input_text`, `input_image` and `input_file`.
 */
export function toResponsesUserContent(content: string | readonly UserContentPart[]): unknown {
  if (typeof content === 'string') return content;
  return content.map((part) => {
    if (part.type === 'text') return { type: 'input_text', text: part.text };
    if (part.type === 'image')
      return {
        type: 'input_image',
        detail: 'auto',
        image_url: 'url' in part ? part.url : dataUrl(part.mediaType, part.data),
      };
    if ('url' in part) return { type: 'input_file', file_url: part.url };
    return { type: 'input_file', file_data: dataUrl(part.mediaType, part.data), filename: part.title ?? 'document' };
  });
}

/**
 * A Tool message's `output` for the Responses API: its content string, or, with `parts` (images of the
 * outcome), a list: an `input_text` of the content (when not empty), then one `input_image` (a `data:`
 * URL) or `input_text` per part.
 */
export function toResponsesToolOutput(message: ToolChatMessage): unknown {
  if (message.parts === undefined || message.parts.length === 0) return message.content;
  const items: unknown[] = message.content.length > 0 ? [{ type: 'input_text', text: message.content }] : [];
  for (const part of message.parts)
    items.push(
      part.type === 'text'
        ? { type: 'input_text', text: part.text }
        : { type: 'input_image', detail: 'auto', image_url: dataUrl(part.mediaType, part.data) },
    );
  return items;
}

/**
 * A Tool message's `content` for Chat Completions, which takes text only in tool messages: the
 * content string, or with text notes among its parts, a list of `text` parts (content first).
 */
export function toChatToolContent(message: ToolChatMessage): unknown {
  const notes = (message.parts ?? []).flatMap((part) => (part.type === 'text' ? [part.text] : []));
  if (notes.length === 0) return message.content;
  return [...(message.content.length > 0 ? [message.content] : []), ...notes].map((text) => ({ type: 'text', text }));
}

/**
 * The images of a run of Tool messages for Chat Completions, as ONE `user` message to send right after
 * them (tool messages take no images): per message with images, a `text` part naming its call, then
 * its images as `image_url` parts (`data:` URLs). `undefined` when none has images.
 */
export function chatToolImagesMessage(messages: readonly ToolChatMessage[]): Record<string, unknown> | undefined {
  const content: unknown[] = [];
  for (const message of messages) {
    const images = (message.parts ?? []).filter(
      (part): part is Extract<ToolMessagePart, { type: 'image' }> => part.type === 'image',
    );
    if (images.length === 0) continue;
    content.push({ type: 'text', text: `Images returned by tool call ${message.toolCallId} (${message.toolName}):` });
    for (const image of images)
      content.push({ type: 'image_url', image_url: { url: dataUrl(image.mediaType, image.data) } });
  }
  return content.length === 0 ? undefined : { role: 'user', content };
}
