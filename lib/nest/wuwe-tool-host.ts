import type { ModuleRef, DiscoveryService } from '@nestjs/core';
import { composeToolProviders } from '../providers/composite-tool-provider';
import { ToolRegistry } from '../providers/tool-registry';
import { ClassType } from '../reflect/field-options';
import { getToolMetadataStorage } from '../reflect/metadata-storage';
import { LlmAgentRunner } from '../runner/llm-agent-runner';
import { WuweModuleOptions } from './wuwe-module-options';

/**
 * The wuwe side of a Nest application: the tool registry (instances from Nest's `ModuleRef`, one
 * fresh instance per call), the runner, and the store's lifecycle. Built by `WuweModule.forRoot`.
 */
export class WuweToolHost {
  /** Tool classes served through Nest's container. */
  readonly registry: ToolRegistry;
  /** The runner every injection point gets. */
  readonly runner: LlmAgentRunner;

  constructor(
    private readonly options: WuweModuleOptions,
    moduleRef: ModuleRef,
    discovery: DiscoveryService | undefined,
  ) {
    const classes = new Set<ClassType<object>>(options.tools ?? []);
    if (discovery !== undefined) for (const target of discoverToolClasses(discovery)) classes.add(target);
    this.registry = new ToolRegistry([...classes], {
      // Without a context id every resolve gets a new one: a fresh instance of transient and request-scoped tools.
      container: { resolve: (target: ClassType<object>) => moduleRef.resolve(target, undefined, { strict: false }) },
    });
    const extra = options.providers ?? [];
    const provider = extra.length === 0 ? this.registry : composeToolProviders(this.registry, ...extra);
    this.runner = new LlmAgentRunner(options.model, provider, {
      ...options.runOptions,
      ...(options.store === undefined ? {} : { store: options.store }),
    });
  }

  /**
   * Nest calls it when the module starts: a tool class registered as a singleton, or one the
   * container cannot resolve, fails the application's start (`SharedToolInstanceError`,
   * `ToolContainerError`) instead of every call of that tool.
   */
  async onModuleInit(): Promise<void> {
    await this.registry.checkContainer();
  }

  /** Nest calls it on `app.close()` (and on signals with `enableShutdownHooks()`): closes the store. */
  async onApplicationShutdown(): Promise<void> {
    if (this.options.closeStoreOnShutdown !== false) await this.options.store?.close();
  }
}

/** Every provider class of the application that carries `@Tool` metadata. */
function discoverToolClasses(discovery: DiscoveryService): ClassType<object>[] {
  const storage = getToolMetadataStorage();
  const found = new Set<ClassType<object>>();
  for (const wrapper of discovery.getProviders()) {
    const metatype = wrapper.metatype as unknown;
    if (typeof metatype === 'function' && wrapper.token === metatype && storage.toolOptions(metatype) !== undefined)
      found.add(metatype as ClassType<object>);
  }
  return [...found];
}
