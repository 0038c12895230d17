import { ClassType } from '../reflect/field-options';
import { composeToolProviders } from '../providers/composite-tool-provider';
import { ReflectedToolProvider } from '../providers/reflected-tool-provider';
import { ToolProvider } from '../providers/tool-provider';
import { LlmAgentRunner } from '../runner/llm-agent-runner';
import { LlmAgentRunOptions } from '../runner/run-options';
import { ModelStepper } from './model-stepper';
import { ModelRequest, ModelResponse } from './model-types';

/** A tool class or a provider, as `bindTools` accepts them. */
export type BindableTools = ClassType<object> | ToolProvider;

/** A model client: one request/response step, and `bindTools` to get a runner over tools. */
export interface ModelClient extends ModelStepper {
  /** A runner over tool classes (reflected) and/or providers, combined in the given order. */
  bindTools(...tools: BindableTools[]): LlmAgentRunner;
}

/** Base of model clients: implements `bindTools` on top of `step`. */
export abstract class BaseModelClient implements ModelClient {
  abstract readonly modelName: string;
  abstract step(request: ModelRequest): Promise<ModelResponse>;

  /**
   * A runner over tool classes (reflected) and/or providers, combined in the given order. Its
   * results type each call after the tools given (see `ToolCallResultOf`): `toolName` is the union
   * of their names when each has one at type level.
   */
  bindTools<const T extends readonly BindableTools[]>(...tools: T): LlmAgentRunner<T[number]> {
    return this.bindToolsWith({}, ...tools);
  }

  /** Like `bindTools` with default run options for every `complete()` of the runner. */
  bindToolsWith<const T extends readonly BindableTools[]>(
    options: LlmAgentRunOptions,
    ...tools: T
  ): LlmAgentRunner<T[number]> {
    return new LlmAgentRunner<T[number]>(this, toProvider(tools), options);
  }
}

/**
 * Tool classes become one reflected provider, placed where the first class was given; with
 * providers, everything is composed in the given order (the order the model sees the tools in).
 */
export function toProvider(tools: readonly BindableTools[]): ToolProvider {
  const classes = tools.filter((tool): tool is ClassType<object> => typeof tool === 'function');
  const firstClass = tools.findIndex((tool) => typeof tool === 'function');
  const all = tools.flatMap((tool, index): ToolProvider[] => {
    if (typeof tool !== 'function') return [tool];
    return index === firstClass ? [new ReflectedToolProvider(classes)] : [];
  });
  return all.length === 1 ? all[0] : composeToolProviders(...all);
}
