import { toolImageProblem } from '../outcome/tool-image';

/**
 * The problem with a Tool message's `parts`, or `undefined` when they are well formed (absent, or a
 * list of plain objects: `{ type: 'text', text }` or `{ type: 'image', mediaType, data }` with an
 * allowed image type and base64 data matching it; no other keys, `__proto__` included).
 */
export function toolMessagePartsProblem(parts: unknown): string | undefined {
  if (parts === undefined) return undefined;
  if (!Array.isArray(parts)) return "a tool message's `parts` must be a list";
  for (const [index, part] of (parts as unknown[]).entries()) {
    const problem = partProblem(part);
    if (problem !== undefined) return `part ${index}: ${problem}`;
  }
  return undefined;
}

function partProblem(part: unknown): string | undefined {
  if (typeof part !== 'object' || part === null || Array.isArray(part)) return 'not an object';
  const { type, text } = part as Record<string, unknown>;
  if (type === 'image') return toolImageProblem(part, ['type']);
  if (type !== 'text') return `unknown part type ${JSON.stringify(type)} (text or image)`;
  const keys = Object.keys(part);
  if (typeof text !== 'string' || keys.length !== 2 || !keys.includes('type') || !keys.includes('text'))
    return 'a text part has a `text` string only';
  return Object.getPrototypeOf(part) === Object.prototype || Object.getPrototypeOf(part) === null
    ? undefined
    : 'a text part must be a plain object';
}
