import { TOOL_NAME_PATTERN } from '../contract/llm-tool';
import { ToolOptions } from './field-options';
import { getToolMetadataStorage } from './metadata-storage';
import { isStandardDecoratorContext } from './standard-decorators';
import { ToolDefinitionError } from './tool-definition-error';

/** A class whose instances can be invoked: what `@Tool()` accepts (checked by the compiler). */
export type InvocableToolClass = abstract new (...args: any[]) => {
  /** Runs the tool with the fields set from the model's arguments. */
  invoke(...args: any[]): unknown;
};

/**
 * The decorator `@Tool(options)` returns: a legacy class decorator or a TC39 standard one (told
 * apart by how it is called). The class must have an `invoke()` method, checked by the compiler
 * here and again by `makeLlmTool`.
 */
export type ToolDecorator = <C extends InvocableToolClass>(target: C, context?: ClassDecoratorContext<C>) => void;

/**
 * Marks a class as a tool. The name defaults to the class name and is checked here, at decoration
 * time: it must match `^[a-zA-Z0-9_-]{1,64}$`.
 *
 * @example
 * ```ts
 * @Tool({ description: 'Get the current weather for a city.' })
 * class GetWeather { @Field() city!: string; invoke() { return `${this.city} is 22 degrees.`; } }
 * ```
 */
export function Tool(options: ToolOptions = {}): ToolDecorator {
  return (target: Function, context?: unknown) => {
    if (context !== undefined && !(isStandardDecoratorContext(context) && context.kind === 'class'))
      throw new ToolDefinitionError(
        'not_a_tool',
        String((context as { name?: unknown }).name),
        undefined,
        '@Tool() decorates a class',
      );
    const name = options.name ?? target.name;
    if (typeof name !== 'string' || !TOOL_NAME_PATTERN.test(name))
      throw new ToolDefinitionError(
        'invalid_tool_name',
        target.name,
        undefined,
        `tool name '${String(name)}' must match ${TOOL_NAME_PATTERN.source}`,
      );
    getToolMetadataStorage().addTool(target, { ...options, name });
  };
}
