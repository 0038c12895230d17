import { messageOf } from '../../../errors/message-of';
import type { LlmAgentRunOptions } from '../../run-options';
import { LlmAgentError } from '../../runner-error';
import type { ResolvedGuardrail } from './decide-guardrails';
import type {
  GuardrailFunction,
  GuardrailKind,
  InputGuardrailContext,
  OutputGuardrailContext,
  ToolAfterGuardrailContext,
  ToolBeforeGuardrailContext,
} from './guardrail-types';

/**
 * The guardrails of a run as they were checked when it started, each read once: the run asks these, never its options
 * again, so an option changed (or a getter answering otherwise) after the check cannot add, drop or swap a
 * guardrail. @internal
 */
export interface RunGuardrails {
  readonly input: readonly ResolvedGuardrail<InputGuardrailContext>[];
  readonly output: readonly ResolvedGuardrail<OutputGuardrailContext>[];
  /** The `before` guardrails of each tool that has some. */
  readonly toolBefore: ReadonlyMap<string, readonly ResolvedGuardrail<ToolBeforeGuardrailContext>[]>;
  /** The `after` guardrails of each tool that has some. */
  readonly toolAfter: ReadonlyMap<string, readonly ResolvedGuardrail<ToolAfterGuardrailContext>[]>;
}

/** Keys of an option object whose function's inferred name names nothing (`before: () => ...`). */
const OPTION_KEYS = new Set(['before', 'after', 'check']);

/**
 * The run's guardrails, checked and read once; throws `invalid_run_options` for guardrail options that cannot work,
 * before anything runs: each of `inputGuardrails` and `outputGuardrails` must be an array of guardrails (a function,
 * or `{ name?, check }`), `toolGuardrails` an object whose own enumerable keys are tools of the runner (no symbol,
 * hidden or inherited key, which would be checked nowhere) and whose `before` / `after` are a guardrail or an array
 * of them; `runInParallel` only on input guardrails. A getter that throws is `invalid_run_options` too. @internal
 */
export function checkedGuardrails(options: LlmAgentRunOptions, toolNames: ReadonlySet<string>): RunGuardrails {
  try {
    return readGuardrails(options, toolNames);
  } catch (error) {
    if (LlmAgentError.isInstance(error)) throw error;
    throw new LlmAgentError('invalid_run_options', `the guardrail options could not be read: ${messageOf(error)}`, {
      cause: error,
    });
  }
}

function readGuardrails(options: LlmAgentRunOptions, toolNames: ReadonlySet<string>): RunGuardrails {
  const input = listOf<InputGuardrailContext>('input', options.inputGuardrails, 'inputGuardrails', true);
  const output = listOf<OutputGuardrailContext>('output', options.outputGuardrails, 'outputGuardrails', false);
  const toolBefore = new Map<string, readonly ResolvedGuardrail<ToolBeforeGuardrailContext>[]>();
  const toolAfter = new Map<string, readonly ResolvedGuardrail<ToolAfterGuardrailContext>[]>();
  const tools: unknown = options.toolGuardrails;
  if (tools !== undefined) {
    if (typeof tools !== 'object' || tools === null || Array.isArray(tools))
      invalid(`toolGuardrails must be an object of tool names, got ${messageOf(tools)}`);
    for (const name of plainKeys(tools, 'toolGuardrails')) {
      if (!toolNames.has(name))
        invalid(
          `toolGuardrails names tool '${name}', which the runner does not have (available: ${[...toolNames].join(', ')})`,
        );
      const guardrails: unknown = (tools as Record<string, unknown>)[name];
      if (typeof guardrails !== 'object' || guardrails === null)
        invalid(`toolGuardrails.${name} must be { before?, after? }`);
      for (const key of plainKeys(guardrails, `toolGuardrails.${name}`))
        if (key !== 'before' && key !== 'after')
          invalid(`toolGuardrails.${name}.${key} is not an option (before, after)`);
      const { before, after } = guardrails as Record<string, unknown>;
      const beforeList = optionList<ToolBeforeGuardrailContext>('tool_before', before, `toolGuardrails.${name}.before`);
      const afterList = optionList<ToolAfterGuardrailContext>('tool_after', after, `toolGuardrails.${name}.after`);
      if (beforeList.length > 0) toolBefore.set(name, beforeList);
      if (afterList.length > 0) toolAfter.set(name, afterList);
    }
  }
  return { input, output, toolBefore, toolAfter };
}

/** A tool's `before` / `after`: one guardrail or an array of them. */
function optionList<Context>(kind: GuardrailKind, option: unknown, source: string): ResolvedGuardrail<Context>[] {
  if (option === undefined) return [];
  return listOf<Context>(kind, Array.isArray(option) ? option : [option], source, false);
}

/** An array of guardrails, each resolved (its function and name read once). */
function listOf<Context>(
  kind: GuardrailKind,
  option: unknown,
  source: string,
  parallelAllowed: boolean,
): ResolvedGuardrail<Context>[] {
  if (option === undefined) return [];
  if (!Array.isArray(option)) invalid(`${source} must be an array of guardrails`);
  return Array.from(option as readonly unknown[], (entry, index) =>
    resolved<Context>(kind, entry, `${source}[${index}]`, index, parallelAllowed),
  );
}

/**
 * One guardrail with its name: a named one's `name`, the function's name (not one inferred from the keys `before`,
 * `after`, `check`), else `<kind>#<index>`.
 */
function resolved<Context>(
  kind: GuardrailKind,
  entry: unknown,
  source: string,
  index: number,
  parallelAllowed: boolean,
): ResolvedGuardrail<Context> {
  if (typeof entry === 'function')
    return { name: nameOf(entry, kind, index), check: entry as GuardrailFunction<Context>, runInParallel: false };
  const named = typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>) : undefined;
  const check = named?.check;
  if (named === undefined || typeof check !== 'function')
    invalid(`${source} must be a function or { name?, check }, got ${messageOf(entry)}`);
  const { name, runInParallel } = named;
  if (name !== undefined && typeof name !== 'string') invalid(`${source}.name must be a string`);
  if (runInParallel !== undefined && (!parallelAllowed || typeof runInParallel !== 'boolean'))
    invalid(
      parallelAllowed
        ? `${source}.runInParallel must be a boolean`
        : `${source}.runInParallel is an option of input guardrails only`,
    );
  return {
    name: typeof name === 'string' && name.length > 0 ? name : nameOf(check, kind, index),
    check: check as GuardrailFunction<Context>,
    runInParallel: runInParallel === true,
  };
}

function nameOf(check: unknown, kind: GuardrailKind, index: number): string {
  const functionName: unknown = (check as { name?: unknown }).name;
  // A function's name inferred from the option key it was written under (`before: () => ...`) names nothing.
  if (typeof functionName === 'string' && functionName.length > 0 && !OPTION_KEYS.has(functionName))
    return functionName;
  return `${kind}#${index}`;
}

/** The own enumerable string keys of `value`; `invalid_run_options` for a symbol, hidden or inherited key. */
function plainKeys(value: object, source: string): string[] {
  const keys = Object.keys(value);
  for (const key of Reflect.ownKeys(value))
    if (typeof key !== 'string' || !keys.includes(key))
      invalid(
        `${source} has a ${typeof key === 'string' ? 'non-enumerable' : 'symbol'} key ${messageOf(String(key))}, which would be checked nowhere`,
      );
  for (const key in value)
    if (!Object.hasOwn(value, key)) invalid(`${source} has an inherited key '${key}', which would be checked nowhere`);
  return keys;
}

function invalid(message: string): never {
  throw new LlmAgentError('invalid_run_options', message);
}
