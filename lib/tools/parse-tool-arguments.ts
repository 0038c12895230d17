import { ArgumentLimits, DEFAULT_ARGUMENT_LIMITS } from '../validation/argument-limits';
import { decodeToolArguments } from '../validation/decode-arguments';
import { takeValidated } from '../validation/validated-arguments';
import { constructInstance, InstanceFactory } from './build-instance';
import { compileToolClass } from './compiled-tool-class';
import { ToolArgumentError } from './tool-argument-error';

/** Options of {@link parseToolArguments}. */
export interface ParseToolArgumentsOptions {
  /** @default DEFAULT_ARGUMENT_LIMITS (depth 64, 8 MiB) */
  readonly limits?: ArgumentLimits;
  /** Creates the root instance (a DI container's resolve, for instance). @default `new Class()` */
  readonly instantiate?: InstanceFactory;
}

/** Result of {@link tryParseToolArguments}. */
export type ParsedToolArguments<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: ToolArgumentError };

/**
 * Parses model arguments (JSON text or an object) into an instance of the tool class, nested
 * instances included, with defaults applied, after guarding (depth, forbidden keys, lone
 * surrogates, non-finite numbers, size) and validating with the class's compiled ajv validator.
 * Never throws for bad input: returns every issue.
 */
export function tryParseToolArguments<T extends object>(
  target: abstract new (...args: any[]) => T,
  input: unknown,
  options: ParseToolArgumentsOptions = {},
): ParsedToolArguments<T> {
  const compiled = compileToolClass(target);
  // Arguments the runner already decoded and validated against this very schema are not walked
  // again; only flat ones, since filling shares nested values with the caller's object.
  if (takeValidated(input, compiled.llmTool.inputSchema) && hasOnlyScalarValues(input as Record<string, unknown>))
    return {
      ok: true,
      value: compiled.fill((options.instantiate ?? constructInstance)(target), input as Record<string, unknown>) as T,
    };
  const decoded = decodeToolArguments(input, options.limits ?? DEFAULT_ARGUMENT_LIMITS);
  if (!decoded.ok)
    return { ok: false, error: new ToolArgumentError(decoded.code, compiled.llmTool.name, decoded.issues) };
  const issues = compiled.validate(decoded.value);
  if (issues.length > 0)
    return { ok: false, error: new ToolArgumentError('invalid_arguments', compiled.llmTool.name, issues) };
  const instance = (options.instantiate ?? constructInstance)(target);
  return { ok: true, value: compiled.fill(instance, decoded.value) as T };
}

/** Like {@link tryParseToolArguments} but throws {@link ToolArgumentError} listing every issue. */
export function parseToolArguments<T extends object>(
  target: abstract new (...args: any[]) => T,
  input: unknown,
  options?: ParseToolArgumentsOptions,
): T {
  const parsed = tryParseToolArguments(target, input, options);
  if (!parsed.ok) throw parsed.error;
  return parsed.value;
}

function hasOnlyScalarValues(value: Record<string, unknown>): boolean {
  for (const key in value) {
    const item = value[key];
    if (typeof item === 'object' && item !== null) return false;
  }
  return true;
}
