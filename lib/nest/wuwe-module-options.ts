import { RunStore } from '../durable/run-store';
import { ModelStepper } from '../model/model-stepper';
import { ToolProvider } from '../providers/tool-provider';
import { ClassType } from '../reflect/field-options';
import { LlmAgentRunOptions } from '../runner/run-options';

/** What `WuweModule.forRoot` takes. */
export interface WuweModuleOptions {
  /** The model the injected `LlmAgentRunner` talks to (`AnthropicModelClient`, `ScriptedModelClient`, ...). */
  readonly model: ModelStepper;
  /** The durable store of runs; injectable as `WUWE_RUN_STORE`, closed on application shutdown. @default none */
  readonly store?: RunStore;
  /** Default options of every run (system prompt, host policy, approvals, ...). @default {} */
  readonly runOptions?: Omit<LlmAgentRunOptions, 'store'>;
  /**
   * Tool classes to serve besides the discovered ones. Each must be a Nest provider somewhere in
   * the application (`forFeature` registers them as transient providers).
   * @default []
   */
  readonly tools?: readonly ClassType<object>[];
  /** Serve every `@Tool` class registered as a Nest provider in the application. @default true */
  readonly discover?: boolean;
  /** Providers that are not tool classes (toolkits, `McpToolProvider`s), served next to them. @default [] */
  readonly providers?: readonly ToolProvider[];
  /** Close `store` when the application shuts down. @default true */
  readonly closeStoreOnShutdown?: boolean;
}
