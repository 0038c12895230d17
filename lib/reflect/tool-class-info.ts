import { getToolMetadataStorage } from './metadata-storage';
import { TOOL_NAME_PATTERN } from '../contract/llm-tool';
import { ToolDefinitionError } from './tool-definition-error';

/**
 * Name and description of a tool class. The name is the class's own `@Tool` name, else the class
 * name (never inherited: a subclass is another tool). The description is the nearest along the
 * class chain of a `@Tool` description or a static `description`, else an instance `description`.
 */
export function toolClassInfo(target: Function): { name: string; description: string } {
  const storage = getToolMetadataStorage();
  if (!storage.hasAnyMetadata(target))
    throw new ToolDefinitionError(
      'not_a_tool',
      target.name,
      undefined,
      'not a tool class: decorate it with @Tool() and its arguments with @Field()',
    );
  const options = storage.toolOptions(target);
  const name = options?.name ?? target.name;
  // `@Tool` checks its name at decoration; a class described without `@Tool` is checked here.
  if (!TOOL_NAME_PATTERN.test(name))
    throw new ToolDefinitionError(
      'invalid_tool_name',
      target.name,
      undefined,
      `tool name '${name}' must match ${TOOL_NAME_PATTERN.source}; give one with @Tool({ name })`,
    );
  const description =
    storage.inheritedDescriptionOf(target) ?? staticDescription(target) ?? instanceDescription(target);
  if (description === undefined)
    throw new ToolDefinitionError(
      'missing_description',
      target.name,
      undefined,
      'a tool needs a description: `@Tool({ description })`, `static description = ...` or an instance `description`',
    );
  return { name, description };
}

function staticDescription(target: Function): string | undefined {
  const value = (target as unknown as { description?: unknown }).description;
  return typeof value === 'string' ? value : undefined;
}

function instanceDescription(target: Function): string | undefined {
  try {
    const instance = new (target as new () => { description?: unknown })();
    return typeof instance.description === 'string' ? instance.description : undefined;
  } catch {
    return undefined;
  }
}
