import { TOOL_NAME_PATTERN } from '../contract/llm-tool';
import { ToolOptions } from './field-options';
import { getToolMetadataStorage } from './metadata-storage';
import { ToolDefinitionError } from './tool-definition-error';

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
export function Tool(options: ToolOptions = {}): ClassDecorator {
  return (target) => {
    const name = options.name ?? target.name;
    if (typeof name !== 'string' || !TOOL_NAME_PATTERN.test(name))
      throw new ToolDefinitionError('invalid_tool_name', target.name, undefined, `tool name '${String(name)}' must match ${TOOL_NAME_PATTERN.source}`);
    getToolMetadataStorage().addTool(target, { ...options, name });
  };
}
