import { MemoryModuleError } from './memory-module-error';
import type { MemoryToolProviderOptions } from './memory-tool-provider';
import { MemoryToolLimits } from './memory-tools';

/** Memory tool options with every default filled. */
export interface ResolvedMemoryToolOptions extends MemoryToolLimits {
  readonly namespace: string;
  readonly allowForget: boolean;
}

/** Options {@link resolveMemoryToolOptions} reads (the provider's options without the store). */
export type MemoryToolOptionsInput = Omit<MemoryToolProviderOptions, 'store'>;

/** Fills defaults and checks limits; throws `MemoryModuleError` (`invalid_memory_options`) listing every problem. */
export function resolveMemoryToolOptions(options: MemoryToolOptionsInput): ResolvedMemoryToolOptions {
  const maxLimit = options.maxLimit ?? 20;
  const resolved: ResolvedMemoryToolOptions = Object.freeze({
    namespace: options.namespace ?? 'default',
    allowForget: options.allowForget ?? true,
    maxTextChars: options.maxTextChars ?? 4000,
    maxTags: options.maxTags ?? 16,
    defaultLimit: options.defaultLimit ?? Math.min(5, maxLimit),
    maxLimit,
  });
  const problems: string[] = [];
  if (typeof resolved.namespace !== 'string' || resolved.namespace.length === 0)
    problems.push('namespace must be a non-empty string');
  if (!isIntegerWithin(resolved.maxTextChars, 1, 1_000_000))
    problems.push('maxTextChars must be an integer within 1..1000000');
  if (!isIntegerWithin(resolved.maxTags, 0, 256)) problems.push('maxTags must be an integer within 0..256');
  if (!isIntegerWithin(resolved.maxLimit, 1, 1000)) problems.push('maxLimit must be an integer within 1..1000');
  if (!isIntegerWithin(resolved.defaultLimit, 1, resolved.maxLimit))
    problems.push('defaultLimit must be an integer within 1..maxLimit');
  if (problems.length > 0)
    throw new MemoryModuleError('invalid_memory_options', `Invalid memory tool options: ${problems.join('; ')}`);
  return resolved;
}

function isIntegerWithin(value: number, min: number, max: number): boolean {
  return Number.isSafeInteger(value) && value >= min && value <= max;
}
