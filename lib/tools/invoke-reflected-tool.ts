import { ToolOutcome } from '../outcome/tool-outcome';
import { InstanceFactory } from './build-instance';
import { tryParseToolArguments } from './parse-tool-arguments';
import { thrownToToolOutcome, toToolOutcome } from './to-tool-outcome';

/** A tool class instance: its fields are the arguments, `invoke` does the work. */
export interface InvocableTool {
  /**
   * Does the work with the parsed arguments in the instance's fields; may return a promise. Under the
   * runner, `context` is a `ReflectedToolContext` (`signal`, aborted at the deadline or when the run
   * aborts, and `host`); `invokeReflectedTool` passes the context it is given.
   */
  invoke(context?: unknown): unknown;
}

/** Options of {@link invokeReflectedTool}. */
export interface InvokeReflectedToolOptions {
  /** Creates the instance (a DI container's resolve, for instance). @default `new Class()` */
  readonly instantiate?: InstanceFactory;
}

/**
 * Parses the arguments, builds the instance, calls `invoke()` or `invoke(context)` (sync or async)
 * and serializes the result. Never rejects: bad arguments, a throw or a rejection become failure outcomes.
 */
export function invokeReflectedTool(
  target: abstract new (...args: any[]) => object,
  args: unknown,
  context?: unknown,
  options: InvokeReflectedToolOptions = {},
): Promise<ToolOutcome> {
  try {
    const result = startReflectedTool(target, args, context, options);
    // One reaction converts an asynchronous result; a synchronous one is converted now.
    if (isThenable(result)) return Promise.resolve(result).then(toToolOutcome, thrownToToolOutcome);
    return Promise.resolve(toToolOutcome(result));
  } catch (error) {
    return Promise.resolve(thrownToToolOutcome(error));
  }
}

/**
 * The unconverted start of {@link invokeReflectedTool}: parses the arguments into a fresh instance
 * and returns what its `invoke(context)` returned (a value or a promise), for a caller that
 * converts it itself (the runner's attempt, which converts every result once). Throws the
 * `ToolArgumentError` of bad arguments, the error of a class without `invoke()`, and whatever
 * `invoke` throws; {@link thrownToToolOutcome} turns each into the failure `invokeReflectedTool` gives.
 * The instance never shares a value with `args`, so the tool cannot change them.
 */
export function startReflectedTool(
  target: abstract new (...args: any[]) => object,
  args: unknown,
  context: unknown,
  options: InvokeReflectedToolOptions,
): unknown {
  const parsed = tryParseToolArguments(target, args, { instantiate: options.instantiate });
  if (!parsed.ok) throw parsed.error;
  const instance = parsed.value as Partial<InvocableTool>;
  if (typeof instance.invoke !== 'function') throw new Error(`tool class ${target.name} has no invoke() method`);
  return instance.invoke(context);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
