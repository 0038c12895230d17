import { NO_CAPABILITIES } from '../contract/defaults';
import { ToolDescriptor } from '../contract/tool-descriptor';
import { JsonObject } from '../outcome/json-value';
import { standardFailure, ToolOutcome } from '../outcome/tool-outcome';
import { ClassType } from '../reflect/field-options';
import { constructInstance, InstanceFactory } from '../tools/build-instance';
import { invokeReflectedTool } from '../tools/invoke-reflected-tool';
import { toolDescriptorOf } from '../tools/tool-descriptor-of';
import { ToolProviderError } from './tool-provider-error';
import { ToolInvocation } from './tool-invocation';
import { ToolProvider, ToolProviderCapabilities, ToolsChangedListener } from './tool-provider';
import { ToolsChangedEmitter } from './tools-changed-emitter';

/**
 * What a tool class's `invoke(context)` receives when {@link ReflectedToolProvider} or `ToolRegistry`
 * calls it for the runner. A class tool gets no heartbeat reporter and no idempotency key: those reach
 * only a provider's `invokeTool(invocation)` when it declares the `heartbeat` / `idempotencyKey`
 * capability (see {@link ToolInvocation}).
 *
 * @example
 * ```ts
 * @Tool({ description: 'Fetch a page.' })
 * @Contract({ timeoutMs: 5_000 })
 * class FetchPage {
 *   @Field() url!: string;
 *   async invoke({ signal }: ReflectedToolContext) {
 *     return (await fetch(this.url, { signal })).text(); // stops at the deadline
 *   }
 * }
 * ```
 */
export interface ReflectedToolContext {
  /**
   * Aborted when the runner gives the call up: at the contract's `timeoutMs`, at its heartbeat limit or
   * when the run aborts. The runner answers `timeout` or `cancelled` at once either way; a tool that
   * honours the signal also stops its work. Absent when the tool is invoked without a runner
   * (`invokeReflectedTool(Class, args)` without a context).
   */
  readonly signal?: AbortSignal;
  /** The provider's `context` option (`new ReflectedToolProvider(classes, { context })`), for host data. */
  readonly host?: unknown;
}

/** Options of {@link ReflectedToolProvider}. */
export interface ReflectedToolProviderOptions {
  /** Host context passed to `invoke(context)` as `context.host`. */
  readonly context?: unknown;
  /** Creates tool instances. @default `new Class()` */
  readonly instantiate?: InstanceFactory;
}

/** Where an invocation's context reads its signal from (created on first read). */
interface AttemptSignal {
  readonly signal: AbortSignal;
}

/**
 * Supplies schemas and dispatch for a set of tool classes (the seed's `tool_provider<T...>`).
 * It declares none of the advanced capabilities: it calls `invoke()` from model arguments and
 * does not pass the idempotency key or a heartbeat reporter.
 */
export class ReflectedToolProvider<Tool extends ClassType<object> = ClassType<object>> implements ToolProvider {
  private servedClasses: readonly Tool[] = [];
  private readonly byName = new Map<string, { target: ClassType<object>; descriptor: ToolDescriptor }>();
  private descriptors: readonly ToolDescriptor[] = [];
  private readonly toolsChanged = new ToolsChangedEmitter();

  /** Compiles every class now, so definition errors surface here and not at call time. */
  constructor(
    classes: readonly Tool[],
    protected readonly options: ReflectedToolProviderOptions = {},
  ) {
    this.add(classes);
  }

  /** Adds tool classes; a name offered twice is a `ToolProviderError` (`duplicate_tool`). */
  protected add(classes: readonly ClassType<object>[]): void {
    for (const target of classes) {
      const descriptor = toolDescriptorOf(target);
      if (this.byName.has(descriptor.name))
        throw new ToolProviderError('duplicate_tool', `two tool classes are named '${descriptor.name}'`);
      this.byName.set(descriptor.name, { target, descriptor });
    }
    this.descriptors = Object.freeze([...this.byName.values()].map((entry) => entry.descriptor));
    this.servedClasses = Object.freeze([...this.byName.values()].map((entry) => entry.target as Tool));
  }

  /**
   * The tool classes served, in the order given; their static `toolName`s type a runner's results (see
   * `ToolCallResultOf`).
   */
  get reflectedClasses(): readonly Tool[] {
    return this.servedClasses;
  }

  listTools(): readonly ToolDescriptor[] {
    return this.descriptors;
  }

  /** Subscribes to changes of the tool list (classes registered later); returns the unsubscribe function. */
  onToolsChanged(listener: ToolsChangedListener): () => void {
    return this.toolsChanged.subscribe(listener);
  }

  /** Tells the `onToolsChanged` listeners that the list changed; subclasses call it after adding tools. */
  protected notifyToolsChanged(): void {
    this.toolsChanged.emit();
  }

  capabilities(_toolName: string): ToolProviderCapabilities {
    return NO_CAPABILITIES;
  }

  invoke(toolName: string, args: JsonObject, signal?: AbortSignal): Promise<ToolOutcome> {
    return this.invokeWithContext(toolName, args, { signal, host: this.options.context });
  }

  /**
   * The rich form, used by the runner; only the signal is taken from the invocation (read lazily).
   * It grants no capability: the idempotency key, heartbeats and compensation stay unused.
   */
  invokeTool(invocation: ToolInvocation): Promise<ToolOutcome> {
    return this.invokeWithContext(
      invocation.toolName,
      invocation.arguments,
      new InvocationToolContext(invocation, this.options.context),
    );
  }

  private invokeWithContext(toolName: string, args: JsonObject, context: ReflectedToolContext): Promise<ToolOutcome> {
    const entry = this.byName.get(toolName);
    if (entry === undefined) return Promise.resolve(standardFailure('unknown_tool', `no tool named '${toolName}'`));
    let instance: object | undefined;
    const instantiate = (target: Function): object => (instance = this.createInstance(target));
    return invokeReflectedTool(entry.target, args, context, { instantiate }).finally(() => {
      if (instance !== undefined) this.releaseInstance(instance);
    });
  }

  /** Creates the instance for one call; {@link ToolRegistry} resolves it from a container. */
  protected createInstance(target: Function): object {
    return (this.options.instantiate ?? constructInstance)(target);
  }

  /** Called when the call that used `instance` has settled. */
  protected releaseInstance(_instance: object): void {}
}

/**
 * The context of a rich invocation: `signal` is read from it on each access (it is created on
 * first read).
 */
class InvocationToolContext implements ReflectedToolContext {
  constructor(
    private readonly invocation: AttemptSignal,
    readonly host: unknown,
  ) {}

  get signal(): AbortSignal {
    return this.invocation.signal;
  }
}
