import { LlmTool } from '../contract/llm-tool';
import { compileToolClass } from './compiled-tool-class';

/**
 * The model-visible tool of a class: `{ name, description, inputSchema }`. Generated once per
 * class and cached; throws `ToolDefinitionError` for unsupported members, naming class and property.
 */
export function makeLlmTool(target: Function): LlmTool {
  return compileToolClass(target).llmTool;
}
