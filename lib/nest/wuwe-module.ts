import type { DynamicModule, Provider } from '@nestjs/common';
import { ToolRegistry } from '../providers/tool-registry';
import { ClassType } from '../reflect/field-options';
import { LlmAgentRunner } from '../runner/llm-agent-runner';
import { loadNestCommon, loadNestCore } from './load-nest';
import { WuweModuleOptions } from './wuwe-module-options';
import { WuweToolHost } from './wuwe-tool-host';
import { WUWE_MODULE_OPTIONS, WUWE_RUN_STORE } from './wuwe-tokens';

/**
 * The NestJS module of wuwe. `forRoot` (once, in the root module) makes `LlmAgentRunner`,
 * `ToolRegistry` and the store (`WUWE_RUN_STORE`) injectable everywhere; `forFeature` registers
 * tool classes as transient Nest providers, so each call gets a fresh instance with its
 * constructor-injected services. `@Tool` classes registered as providers elsewhere are discovered.
 * A misregistered tool (a singleton, or a class the container cannot resolve) fails the start.
 *
 * Loads `@nestjs/common` and `@nestjs/core` when `forRoot`/`forFeature` is called.
 */
export class WuweModule {
  /** The root registration: model, store, run options. */
  static forRoot(options: WuweModuleOptions): DynamicModule {
    const core = loadNestCore('WuweModule');
    const discover = options.discover !== false;
    const providers: Provider[] = [
      { provide: WUWE_MODULE_OPTIONS, useValue: options },
      {
        provide: WuweToolHost,
        useFactory: (
          moduleRef: InstanceType<typeof core.ModuleRef>,
          discovery?: InstanceType<typeof core.DiscoveryService>,
        ) => new WuweToolHost(options, moduleRef, discovery),
        inject: discover ? [core.ModuleRef, core.DiscoveryService] : [core.ModuleRef],
      },
      { provide: LlmAgentRunner, useFactory: (host: WuweToolHost) => host.runner, inject: [WuweToolHost] },
      { provide: ToolRegistry, useFactory: (host: WuweToolHost) => host.registry, inject: [WuweToolHost] },
      { provide: WUWE_RUN_STORE, useValue: options.store },
    ];
    return {
      module: WuweModule,
      global: true,
      imports: discover ? [core.DiscoveryModule] : [],
      providers,
      exports: [LlmAgentRunner, ToolRegistry, WUWE_RUN_STORE, WUWE_MODULE_OPTIONS],
    };
  }

  /**
   * Registers tool classes as transient providers (one instance per call). Their constructor
   * dependencies come from `imports`, the modules that export those services.
   */
  static forFeature(tools: readonly ClassType<object>[], options: WuweFeatureOptions = {}): DynamicModule {
    const { Scope } = loadNestCommon('WuweModule.forFeature');
    const providers: Provider[] = tools.map((tool) => ({
      provide: tool,
      useClass: tool as unknown as new (...args: never[]) => object,
      scope: Scope.TRANSIENT,
    }));
    return { module: WuweFeatureModule, imports: [...(options.imports ?? [])], providers, exports: [...tools] };
  }
}

/** Options of `WuweModule.forFeature`. */
export interface WuweFeatureOptions {
  /** Modules whose exported providers the tools inject. @default [] */
  readonly imports?: NonNullable<DynamicModule['imports']>;
}

/** The module class of `forFeature` registrations. */
export class WuweFeatureModule {}
