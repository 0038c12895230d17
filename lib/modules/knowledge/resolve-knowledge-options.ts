import { KnowledgeIndexError } from './knowledge-index-error';
import { KnowledgeIndexOptions } from './knowledge-types';
import { MARKER_PATTERN } from './mark-matches';

/** {@link KnowledgeIndexOptions} with every default filled. */
export type ResolvedKnowledgeIndexOptions = Readonly<Required<KnowledgeIndexOptions>>;

/**
 * Checks the options of a knowledge index and fills defaults; throws `KnowledgeIndexError`
 * (`invalid_knowledge_options`) listing every problem.
 */
export function resolveKnowledgeIndexOptions(options: KnowledgeIndexOptions): ResolvedKnowledgeIndexOptions {
  const resolved: ResolvedKnowledgeIndexOptions = Object.freeze({
    maxPassageChars: options.maxPassageChars ?? 1200,
    snippetTokens: options.snippetTokens ?? 24,
    highlightOpen: options.highlightOpen ?? '**',
    highlightClose: options.highlightClose ?? '**',
    maxLimit: options.maxLimit ?? 50,
  });
  const problems: string[] = [];
  if (!isIntegerWithin(resolved.maxPassageChars, 200, 20_000))
    problems.push('maxPassageChars must be an integer within 200..20000');
  if (!isIntegerWithin(resolved.snippetTokens, 1, 64)) problems.push('snippetTokens must be an integer within 1..64');
  if (!isIntegerWithin(resolved.maxLimit, 1, 1000)) problems.push('maxLimit must be an integer within 1..1000');
  if (
    typeof resolved.highlightOpen !== 'string' ||
    typeof resolved.highlightClose !== 'string' ||
    !MARKER_PATTERN.test(resolved.highlightOpen) ||
    !MARKER_PATTERN.test(resolved.highlightClose)
  )
    problems.push(
      'highlight markers must be 1 to 8 characters, none of them a letter, digit, space, control character or backslash',
    );
  if (problems.length > 0)
    throw new KnowledgeIndexError(
      'invalid_knowledge_options',
      `Invalid knowledge index options: ${problems.join('; ')}`,
    );
  return resolved;
}

function isIntegerWithin(value: number, min: number, max: number): boolean {
  return Number.isSafeInteger(value) && value >= min && value <= max;
}
