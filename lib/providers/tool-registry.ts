import { WuweError } from '../errors/wuwe-error';
import { ClassType } from '../reflect/field-options';
import { hasErrorMarker } from '../errors/error-marker';
import { messageOf } from '../errors/message-of';
import { JsonObject } from '../outcome/json-value';
import { ToolOutcome } from '../outcome/tool-outcome';
import { invokeReflectedTool } from '../tools/invoke-reflected-tool';
import { tryParseToolArguments } from '../tools/parse-tool-arguments';
import { thrownToToolOutcome } from '../tools/to-tool-outcome';
import { toolDescriptorOf } from '../tools/tool-descriptor-of';
import { ReflectedToolContext, ReflectedToolProvider, ReflectedToolProviderOptions } from './reflected-tool-provider';
import { ToolInvocation } from './tool-invocation';

/** Anything that resolves instances by class: tsyringe (`resolve`), Inversify or NestJS (`get`). */
export type DependencyContainer =
  | {
      /** Resolves an instance of `target` (tsyringe); may answer a Promise (NestJS `ModuleRef.resolve`). */
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

const TOOL_CONTAINER_ERROR_MARKER = Symbol.for('wuwe.error.ToolContainerError');

/**
 * The container cannot give an instance of a registered tool class (not registered, a failing dependency, another
 * type).
 */
export class ToolContainerError extends WuweError<'unresolvable_tool'> {
  private readonly [TOOL_CONTAINER_ERROR_MARKER] = true;

  constructor(className: string, reason: string, cause?: unknown) {
    super('unresolvable_tool', `the container cannot resolve the tool class ${className}: ${reason}`, { cause });
  }

  /** True when `value` is a ToolContainerError, from this or another copy of the package. */
  static override isInstance(value: unknown): value is ToolContainerError {
    return typeof value === 'object' && value !== null && TOOL_CONTAINER_ERROR_MARKER in value;
  }
}

/** Options of {@link ToolRegistry}. */
export interface ToolRegistryOptions extends Omit<ReflectedToolProviderOptions, 'instantiate'> {
  /**
   * Where tool instances come from; `resolve`/`get` may answer a Promise (NestJS's `ModuleRef.resolve`). @default none:
   * classes are constructed without arguments
   */
  readonly container?: DependencyContainer;
}

/**
 * The container-backed registry of tool classes. Each call resolves an instance from the DI
 * container (`resolve(Class)` or `get(Class)`, synchronous or answering a Promise), so tools get
 * constructor-injected services while their fields are the arguments. The arguments are validated
 * before the container is asked, so bad input resolves and runs nothing. Without a container it
 * constructs the class. Each call needs a fresh instance: one the container already handed to an
 * earlier or concurrent call (a singleton) is refused (`shared_tool_instance`), since its fields
 * would leak one call's arguments into another. {@link ToolRegistry.checkContainer} finds such
 * misconfiguration before the first call.
 */
export class ToolRegistry extends ReflectedToolProvider {
  /** Every instance handed to a call so far (held weakly). */
  private readonly handedOut = new WeakSet<object>();
  /**
   * Set in `add`, which the base constructor calls before this class's fields are initialized. Declared
   * only (`declare`, no field emitted): with define semantics (`useDefineForClassFields`, TypeScript's
   * default from target ES2022, esbuild's and swc's with modern targets) a plain field would be
   * redefined as `undefined` right after `super()` filled it.
   */
  declare private classesByName?: Map<string, ClassType<object>>;

  constructor(
    classes: readonly ClassType<object>[] = [],
    private readonly registryOptions: ToolRegistryOptions = {},
  ) {
    super(classes, registryOptions);
  }

  /** Registers more tool classes; `onToolsChanged` listeners hear of it (an MCP server sends `tools/list_changed`). */
  register(...classes: ClassType<object>[]): this {
    if (classes.length === 0) return this;
    this.add(classes);
    this.notifyToolsChanged();
    return this;
  }

  /** The registered classes, by tool name. */
  get toolClasses(): ReadonlyMap<string, ClassType<object>> {
    return (this.classesByName ??= new Map());
  }

  protected override add(classes: readonly ClassType<object>[]): void {
    super.add(classes);
    this.classesByName ??= new Map();
    for (const target of classes) this.classesByName.set(toolDescriptorOf(target).name, target);
  }

  override invoke(toolName: string, args: JsonObject, signal?: AbortSignal): Promise<ToolOutcome> {
    return this.invokeFromContainer(toolName, args, { signal, host: this.options.context }, () =>
      super.invoke(toolName, args, signal),
    );
  }

  override invokeTool(invocation: ToolInvocation): Promise<ToolOutcome> {
    const host = this.options.context;
    const context: ReflectedToolContext = {
      get signal() {
        return invocation.signal;
      },
      host,
    };
    return this.invokeFromContainer(invocation.toolName, invocation.arguments, context, () =>
      super.invokeTool(invocation),
    );
  }

  /**
   * Resolves every registered class twice, as two calls would, and throws what a call would meet:
   * `ToolContainerError` (`unresolvable_tool`) when the container fails or gives something else,
   * `SharedToolInstanceError` when it gives one instance twice (a singleton or scoped registration).
   * Hosts call it at startup, so misconfiguration is reported to them, not to the model.
   */
  async checkContainer(): Promise<void> {
    if (this.registryOptions.container === undefined) return;
    for (const target of this.toolClasses.values()) {
      const first = await this.resolveFromContainer(target);
      const second = await this.resolveFromContainer(target);
      if (first === second) throw new SharedToolInstanceError(target.name);
    }
  }

  private async invokeFromContainer(
    toolName: string,
    args: JsonObject,
    context: ReflectedToolContext,
    fallback: () => Promise<ToolOutcome>,
  ): Promise<ToolOutcome> {
    const target = this.toolClasses.get(toolName);
    if (this.registryOptions.container === undefined || target === undefined) return fallback();
    // Validated before the container is asked: bad input creates nothing.
    const checked = tryParseToolArguments(target, args, { instantiate: () => ({}) });
    if (!checked.ok) return thrownToToolOutcome(checked.error);
    let instance: object;
    try {
      instance = await this.resolveFromContainer(target);
      if (this.handedOut.has(instance)) throw new SharedToolInstanceError(target.name);
    } catch (error) {
      return thrownToToolOutcome(error);
    }
    this.handedOut.add(instance);
    return invokeReflectedTool(target, args, context, { instantiate: () => instance });
  }

  private async resolveFromContainer(target: ClassType<object>): Promise<object> {
    const container = this.registryOptions.container!;
    let instance: unknown;
    try {
      instance = await ('resolve' in container ? container.resolve(target) : container.get(target));
    } catch (error) {
      throw new ToolContainerError(target.name, messageOf(error), error);
    }
    if (typeof instance !== 'object' || instance === null || !(instance instanceof target))
      throw new ToolContainerError(target.name, 'it did not return an instance of the class');
    return instance;
  }
}
