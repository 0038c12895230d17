import { ModelApiError } from '../model-api-error';
import { UserContentPart } from '../model-types';

/** A part's inline data as a `data:` URL. */
function dataUrl(mediaType: string, data: string): string {
  return `data:${mediaType};base64,${data}`;
}

function unsupported(what: string): ModelApiError {
  return new ModelApiError('invalid_request', { provider: 'openai', detail: `${what} cannot be sent to this API`, retryable: false });
}

/**
 * A user message's content for Chat Completions: text as is; parts as `text`, `image_url` (a URL or a
 * `data:` URL) and `file` (inline documents as a `data:` URL).
 *
 * @throws {@link ModelApiError} `invalid_request` for a document given by URL (Chat Completions takes inline files only); nothing is sent.
 */
export function toChatUserContent(content: string | readonly UserContentPart[]): unknown {
  if (typeof content === 'string') return content;
  return content.map((part) => {
    if (part.type === 'text') return { type: 'text', text: part.text };
    if (part.type === 'image') return { type: 'image_url', image_url: { url: 'url' in part ? part.url : dataUrl(part.mediaType, part.data) } };
    if ('url' in part) throw unsupported('a document given by URL');
    return { type: 'file', file: { file_data: dataUrl(part.mediaType, part.data), filename: part.title ?? 'document' } };
  });
}

/** A user message's content for the Responses API: text as is; parts as `input_text`, `input_image` and `input_file`. */
export function toResponsesUserContent(content: string | readonly UserContentPart[]): unknown {
  if (typeof content === 'string') return content;
  return content.map((part) => {
    if (part.type === 'text') return { type: 'input_text', text: part.text };
    if (part.type === 'image') return { type: 'input_image', detail: 'auto', image_url: 'url' in part ? part.url : dataUrl(part.mediaType, part.data) };
    if ('url' in part) return { type: 'input_file', file_url: part.url };
    return { type: 'input_file', file_data: dataUrl(part.mediaType, part.data), filename: part.title ?? 'document' };
  });
}
