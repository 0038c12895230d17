import { UserContentPart } from './model-types';

/** The text of a user message's content: the text itself, or its parts joined by new lines (media as `[image]` / `[document]`). */
export function textOfUserContent(content: string | readonly UserContentPart[]): string {
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n');
}

/**
 * The problem with a user message's content, or `undefined` when it is well formed: a string, or a
 * non-empty list of parts, each a `text` with a string, or an `image` / `document` with either a
 * non-empty `mediaType` and base64 `data`, or a non-empty `url`.
 */
export function userContentProblem(content: unknown): string | undefined {
  if (typeof content === 'string') return undefined;
  if (!Array.isArray(content) || content.length === 0) return 'a user message needs text or a non-empty list of parts';
  for (const [index, part] of (content as unknown[]).entries()) {
    const problem = partProblem(part);
    if (problem !== undefined) return `part ${index}: ${problem}`;
  }
  return undefined;
}

function partProblem(part: unknown): string | undefined {
  if (typeof part !== 'object' || part === null) return 'not an object';
  const { type, text, mediaType, data, url } = part as Record<string, unknown>;
  if (type === 'text') return typeof text === 'string' ? undefined : 'a text part needs a `text` string';
  if (type !== 'image' && type !== 'document') return `unknown part type ${JSON.stringify(type)} (text, image or document)`;
  if (typeof url === 'string') return url.length > 0 && data === undefined ? undefined : `an ${type} by url needs a non-empty \`url\` and no \`data\``;
  if (typeof mediaType !== 'string' || mediaType.length === 0) return `an inline ${type} needs a \`mediaType\``;
  if (typeof data !== 'string' || data.length === 0 || !BASE64.test(data)) return `an inline ${type} needs base64 \`data\``;
  return undefined;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
