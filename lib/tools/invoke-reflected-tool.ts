import { ToolOutcome } from '../outcome/tool-outcome';
import { InstanceFactory } from './build-instance';
import { tryParseToolArguments } from './parse-tool-arguments';
import { thrownToToolOutcome, toToolOutcome } from './to-tool-outcome';

/** A tool class instance: its fields are the arguments, `invoke` does the work. */
export interface InvocableTool {
  /** Does the work with the parsed arguments in the instance's fields; may return a promise. */
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
export async function invokeReflectedTool(
  target: abstract new (...args: any[]) => object,
  args: unknown,
  context?: unknown,
  options: InvokeReflectedToolOptions = {},
): Promise<ToolOutcome> {
  try {
    const parsed = tryParseToolArguments(target, args, { instantiate: options.instantiate });
    if (!parsed.ok) return thrownToToolOutcome(parsed.error);
    const instance = parsed.value as Partial<InvocableTool>;
    if (typeof instance.invoke !== 'function')
      return thrownToToolOutcome(new Error(`tool class ${target.name} has no invoke() method`));
    const result = instance.invoke(context);
    // A synchronous result skips the extra turn of the event loop an `await` would take.
    return toToolOutcome(isThenable(result) ? await result : result);
  } catch (error) {
    return thrownToToolOutcome(error);
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
