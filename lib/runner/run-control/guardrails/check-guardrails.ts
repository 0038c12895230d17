import { messageOf } from '../../../errors/message-of';
import type { LlmAgentRunOptions } from '../../run-options';
import { LlmAgentError } from '../../runner-error';

/**
 * Throws `invalid_run_options` for guardrail options that cannot work, before anything runs: each of
 * `inputGuardrails` and `outputGuardrails` must be an array of guardrails (a function, or `{ name?, check }`),
 * `toolGuardrails` an object whose keys are tools of the runner and whose `before` / `after` are a guardrail or an
 * array of them; `runInParallel` only on input guardrails. @internal
 */
export function checkGuardrailOptions(options: LlmAgentRunOptions, toolNames: ReadonlySet<string>): void {
  checkList(options.inputGuardrails, 'inputGuardrails', true);
  checkList(options.outputGuardrails, 'outputGuardrails', false);
  const tools: unknown = options.toolGuardrails;
  if (tools === undefined) return;
  if (typeof tools !== 'object' || tools === null || Array.isArray(tools))
    invalid(`toolGuardrails must be an object of tool names, got ${messageOf(tools)}`);
  for (const [name, guardrails] of Object.entries(tools)) {
    if (!toolNames.has(name))
      invalid(
        `toolGuardrails names tool '${name}', which the runner does not have (available: ${[...toolNames].join(', ')})`,
      );
    if (typeof guardrails !== 'object' || guardrails === null)
      invalid(`toolGuardrails.${name} must be { before?, after? }`);
    for (const key of Object.keys(guardrails as object))
      if (key !== 'before' && key !== 'after')
        invalid(`toolGuardrails.${name}.${key} is not an option (before, after)`);
    const { before, after } = guardrails as Record<string, unknown>;
    for (const [where, option] of [
      ['before', before],
      ['after', after],
    ] as const)
      if (option !== undefined)
        checkList(Array.isArray(option) ? option : [option], `toolGuardrails.${name}.${where}`, false);
  }
}

function checkList(option: unknown, source: string, parallelAllowed: boolean): void {
  if (option === undefined) return;
  if (!Array.isArray(option)) invalid(`${source} must be an array of guardrails`);
  option.forEach((entry: unknown, index) => {
    if (typeof entry === 'function') return;
    const named = typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>) : undefined;
    if (named === undefined || typeof named.check !== 'function')
      invalid(`${source}[${index}] must be a function or { name?, check }, got ${messageOf(entry)}`);
    if (named.name !== undefined && typeof named.name !== 'string')
      invalid(`${source}[${index}].name must be a string`);
    if (named.runInParallel !== undefined && (!parallelAllowed || typeof named.runInParallel !== 'boolean'))
      invalid(
        parallelAllowed
          ? `${source}[${index}].runInParallel must be a boolean`
          : `${source}[${index}].runInParallel is an option of input guardrails only`,
      );
  });
}

function invalid(message: string): never {
  throw new LlmAgentError('invalid_run_options', message);
}
