import { WuweError } from '../errors/wuwe-error';
import { ClassType } from '../reflect/field-options';
import { ReflectedToolProvider, ReflectedToolProviderOptions } from './reflected-tool-provider';

/** Anything that resolves instances by class: tsyringe (`resolve`), Inversify or NestJS (`get`). */
export type DependencyContainer = { resolve(target: any): unknown } | { get(target: any): unknown };

/** The container handed the same tool instance to two calls at once; their fields would be shared. */
export class SharedToolInstanceError extends WuweError<'shared_tool_instance'> {
  constructor(className: string) {
    super(
      'shared_tool_instance',
      `the container returned an instance of ${className} that another call is using; register tool classes as transient, not singletons`,
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
 * their fields are the arguments. Without a container it constructs the class. An instance the
 * container hands to two concurrent calls is refused (`shared_tool_instance`).
 */
export class ToolRegistry extends ReflectedToolProvider {
  private readonly inUse = new WeakSet<object>();

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
    if (typeof instance !== 'object' || instance === null || !(instance instanceof target))
      throw new TypeError(`the container did not return an instance of ${target.name}`);
    if (this.inUse.has(instance)) throw new SharedToolInstanceError(target.name);
    this.inUse.add(instance);
    return instance;
  }

  protected override releaseInstance(instance: object): void {
    this.inUse.delete(instance);
  }
}
