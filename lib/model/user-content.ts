import { UserContentPart } from './model-types';

/**
 * The text of a user message's content: the text itself, or its parts joined by new lines (media as `[image]` /
 * `[document]`).
 */
export function textOfUserContent(content: string | readonly UserContentPart[]): string {
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n');
}

/**
 * The problem with a user message's content, or `undefined` when it is well formed: a string, or a
 * non-empty list of parts, each a plain object: a `text` with a string, or an `image` / `document` with
 * either a non-empty `mediaType` and base64 `data`, or a non-empty `url` (a document may have a string
 * `title`). A key beyond these (`__proto__` included) is refused, as on a tool image.
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
  if (typeof part !== 'object' || part === null || Array.isArray(part)) return 'not an object';
  const prototype = Object.getPrototypeOf(part);
  if (prototype !== Object.prototype && prototype !== null) return 'a part must be a plain object';
  const { type, text, mediaType, data, url, title } = part as Record<string, unknown>;
  if (type !== 'text' && type !== 'image' && type !== 'document')
    return `unknown part type ${JSON.stringify(type)} (text, image or document)`;
  const allowed = PART_KEYS[`${type}${url === undefined ? '' : ' by url'}`];
  const unknown = Object.keys(part).find((key) => !allowed.includes(key));
  if (unknown !== undefined)
    return `${type === 'text' ? 'a text part' : `an ${type}${url === undefined ? '' : ' by url'}`} has only ${allowed.map((key) => `\`${key}\``).join(', ')}, not ${JSON.stringify(unknown)}`;
  if (type === 'text') return typeof text === 'string' ? undefined : 'a text part needs a `text` string';
  if (title !== undefined && typeof title !== 'string') return 'a document `title` must be a string';
  if (url !== undefined)
    return typeof url === 'string' && url.length > 0 ? undefined : `an ${type} by url needs a non-empty \`url\``;
  if (typeof mediaType !== 'string' || mediaType.length === 0) return `an inline ${type} needs a \`mediaType\``;
  if (typeof data !== 'string' || data.length === 0 || !BASE64.test(data))
    return `an inline ${type} needs base64 \`data\``;
  return undefined;
}

/** The keys each kind of part may have. */
const PART_KEYS: Readonly<Record<string, readonly string[]>> = {
  text: ['type', 'text'],
  image: ['type', 'mediaType', 'data'],
  'image by url': ['type', 'url'],
  document: ['type', 'mediaType', 'data', 'title'],
  'document by url': ['type', 'url', 'title'],
};

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
