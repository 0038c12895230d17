import { WuweError } from '../errors/wuwe-error';
import { hasErrorMarker } from '../errors/error-marker';

/** Codes of {@link ToolDefinitionError}. */
export type ToolDefinitionErrorCode =
  | 'invalid_tool_name'
  | 'missing_description'
  | 'unsupported_field_type'
  | 'circular_reference'
  | 'invalid_field_options'
  | 'invalid_default'
  | 'invalid_schema'
  | 'invalid_pattern'
  | 'not_a_tool'
  | 'reflect_metadata_missing'
  | 'missing_design_type'
  | 'missing_invoke'
  | 'static_mismatch';

const TOOL_DEFINITION_ERROR_MARKER = Symbol.for('wuwe.error.ToolDefinitionError');

/**
 * A tool class that cannot be turned into a tool, found at decoration or `makeLlmTool` time,
 * never at call time. Names the class and, where it applies, the property.
 */
export class ToolDefinitionError extends WuweError<ToolDefinitionErrorCode> {
  private readonly [TOOL_DEFINITION_ERROR_MARKER] = true;

  /** True when `value` is a ToolDefinitionError, from this or another copy of the package. */
  static override isInstance(value: unknown): value is ToolDefinitionError {
    return hasErrorMarker(value, TOOL_DEFINITION_ERROR_MARKER);
  }

  constructor(
    code: ToolDefinitionErrorCode,
    readonly className: string,
    readonly propertyName: string | undefined,
    detail: string,
  ) {
    super(code, `${propertyName === undefined ? className : `${className}.${propertyName}`}: ${detail}`);
  }
}
