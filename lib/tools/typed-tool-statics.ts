import { JsonSchema } from '../contract/json-schema';
import { ToolContractOptions, ToolDescriptor } from '../contract/tool-descriptor';
import { buildClassSchema } from '../reflect/build-class-schema';
import { ToolDefinitionError } from '../reflect/tool-definition-error';
import { definitionChecked } from './compiled-tool-class';

/**
 * Contract options with a class `outputSchema` replaced by the JSON Schema its `@Field`s reflect
 * to (the same reflection as tool arguments); other options are returned as they are.
 */
export function reflectOutputSchema(
  target: Function,
  options: ToolContractOptions | undefined,
): ToolContractOptions<JsonSchema> | undefined {
  const output = options?.outputSchema;
  if (typeof output !== 'function') return options as ToolContractOptions<JsonSchema> | undefined;
  const schema = definitionChecked(target, () => buildClassSchema(output).schema, 'outputSchema');
  return { ...options, outputSchema: schema };
}

/**
 * Checks the statics a tool class declares so TypeScript can see its name and output (see
 * `ToolCallResultOf`) against what wuwe uses, so the types cannot say what the runtime does not do:
 * - a static `toolName` must equal the tool's name;
 * - a static `outputSchema` must be the very class given to the contract's `outputSchema`, with
 *   output checked strictly (`outputValidation: 'strict'`, the default), since only then does a
 *   success always carry `data` of that shape.
 * Throws `ToolDefinitionError` (`static_mismatch`) naming the class.
 */
export function checkTypedToolStatics(
  target: Function,
  descriptor: ToolDescriptor,
  options: ToolContractOptions | undefined,
  fromFactory: boolean,
): void {
  const statics = target as { readonly toolName?: unknown; readonly outputSchema?: unknown };
  const toolName = statics.toolName;
  if (toolName !== undefined && toolName !== descriptor.name)
    throw new ToolDefinitionError(
      'static_mismatch',
      target.name,
      'toolName',
      `static toolName ${JSON.stringify(toolName)} is not the tool's name '${descriptor.name}' (a subclass needs its own static toolName)`,
    );
  const output = statics.outputSchema;
  if (output === undefined) return;
  if (fromFactory || typeof output !== 'function' || output !== options?.outputSchema)
    throw new ToolDefinitionError(
      'static_mismatch',
      target.name,
      'outputSchema',
      'static outputSchema must be the class given to @Contract({ outputSchema }) (the same class), so the typed outcome is the checked one',
    );
  if (descriptor.outputValidation !== 'strict')
    throw new ToolDefinitionError(
      'static_mismatch',
      target.name,
      'outputSchema',
      `static outputSchema types the outcome's data, which only outputValidation 'strict' guarantees (this contract has '${descriptor.outputValidation}')`,
    );
}
