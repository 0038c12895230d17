import { WuweError } from '../errors/wuwe-error';
import { ClassType } from '../reflect/field-options';
import { ReflectedToolProvider, ReflectedToolProviderOptions } from './reflected-tool-provider';
import { hasErrorMarker } from '../errors/error-marker';

/** Anything that resolves instances by class: tsyringe (`resolve`), Inversify or NestJS (`get`). */
export type DependencyContainer =
  | {
      /** Resolves an instance of `target` (tsyringe). */
      resolve(target: any): unknown;
    }
  | {
      /** Gets an instance of `target` (Inversify, NestJS). */
      get(target: any): unknown;
    };

const SHARED_TOOL_INSTANCE_ERROR_MARKER = Symbol.for('wuwe.error.SharedToolInstanceError');

/**
 * The container handed out a tool instance that an earlier or concurrent call already got (a
 * singleton or scoped registration): its fields would carry one call's arguments into another.
 */
export class SharedToolInstanceError extends WuweError<'shared_tool_instance'> {
  private readonly [SHARED_TOOL_INSTANCE_ERROR_MARKER] = true;

  /** True when `value` is a SharedToolInstanceError, from this or another copy of the package. */
  static override isInstance(value: unknown): value is SharedToolInstanceError {
    return hasErrorMarker(value, SHARED_TOOL_INSTANCE_ERROR_MARKER);
  }

  constructor(className: string) {
    super(
      'shared_tool_instance',
      `the container returned an instance of ${className} that another call already used; register tool classes as transient, not singletons`,
    );
  }
}

/** Options of {@link ToolRegistry}. */
export interface ToolRegistryOptions extends Omit<ReflectedToolProviderOptions, 'instantiate'> {
  /** Where tool instances come from. @default none: classes are constructed without arguments */
  readonly container?: DependencyContainer;
}

/**
 * The container-backed registry of tool classes. Each call resolves an instance from the DI
 * container (`resolve(Class)` or `get(Class)`), so tools get constructor-injected services while
 * their fields are the arguments. Without a container it constructs the class. Each call needs a
 * fresh instance: one the container already handed to an earlier or concurrent call (a singleton)
 * is refused (`shared_tool_instance`), since its fields would leak one call's arguments into another.
 */
export class ToolRegistry extends ReflectedToolProvider {
  /** Every instance handed to a call so far (held weakly). */
  private readonly handedOut = new WeakSet<object>();

  constructor(
    classes: readonly ClassType<object>[] = [],
    private readonly registryOptions: ToolRegistryOptions = {},
  ) {
    super(classes, registryOptions);
  }

  /** Registers more tool classes. */
  register(...classes: ClassType<object>[]): this {
    this.add(classes);
    return this;
  }

  protected override createInstance(target: Function): object {
    const container = this.registryOptions.container;
    if (container === undefined) return super.createInstance(target);
    const instance = ('resolve' in container ? container.resolve(target) : container.get(target)) as object;
    if (typeof (instance as { then?: unknown } | null)?.then === 'function')
      throw new TypeError(
        `the container resolved ${target.name} asynchronously (a Promise, as NestJS's ModuleRef.resolve does); ToolRegistry needs a synchronous resolve(Class) or get(Class)`,
      );
    if (typeof instance !== 'object' || instance === null || !(instance instanceof target))
      throw new TypeError(`the container did not return an instance of ${target.name}`);
    if (this.handedOut.has(instance)) throw new SharedToolInstanceError(target.name);
    this.handedOut.add(instance);
    return instance;
  }
}
