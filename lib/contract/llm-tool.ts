import { JsonSchema } from './json-schema';

/** The small model-visible tool value: name, description and input schema. */
export interface LlmTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
}

/** Tool names must match this pattern (the constraint model APIs share). */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
