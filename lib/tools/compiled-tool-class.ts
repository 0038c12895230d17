import { JsonSchema } from '../contract/json-schema';
import { LlmTool } from '../contract/llm-tool';
import { buildClassSchema, FieldDefault } from '../reflect/build-class-schema';
import { ClassPlan } from '../reflect/class-plan';
import { getToolMetadataStorage } from '../reflect/metadata-storage';
import { toolClassInfo } from '../reflect/tool-class-info';
import { compileInstanceFiller, InstanceFiller } from './build-instance';
import {
  CompiledSchemaValidator,
  compileInputValidator,
  SchemaCompileError,
  validateOnce,
} from '../validation/schema-validator';
import { ToolDefinitionError } from '../reflect/tool-definition-error';
import { formatIssues } from './tool-argument-error';
import { compiledSchemaTool } from './schema-tool-registry';

/** Everything derived once per tool class: the model-visible tool, the validator, the instance plans and filler. */
export interface CompiledToolClass {
  readonly target: Function;
  readonly llmTool: LlmTool;
  readonly validate: CompiledSchemaValidator;
  readonly plans: ReadonlyMap<Function, ClassPlan>;
  /** Fills an instance of the class from validated arguments. */
  readonly fill: InstanceFiller;
}

interface CacheEntry {
  /** The storage revision this entry was last found valid at. */
  revision: number;
  /** The storage revision it was built at. */
  readonly builtAt: number;
  readonly compiled: CompiledToolClass;
}

const cache = new WeakMap<Function, CacheEntry>();

/**
 * Compiles a tool class once (a `defineTool` tool was compiled when defined; cached until the metadata of the class, an
 * ancestor or a nested class
 * changes; decorating unrelated classes keeps the cache): schema, ajv validator and
 * instance plans. Definition errors (bad types, cycles, a missing description, a schema strict ajv
 * refuses, a default that does not match its own field) surface here, as `ToolDefinitionError`.
 */
export function compileToolClass(target: Function): CompiledToolClass {
  const defined = compiledSchemaTool(target);
  if (defined !== undefined) return defined;
  const storage = getToolMetadataStorage();
  const revision = storage.currentRevision;
  const cached = cache.get(target);
  if (cached !== undefined) {
    if (cached.revision === revision) return cached.compiled;
    if (!storage.changedSince(cached.compiled.plans.keys(), cached.builtAt)) {
      cached.revision = revision;
      return cached.compiled;
    }
  }
  const { name, description } = toolClassInfo(target);
  const { schema, plans, defaults } = buildClassSchema(target);
  if (plans.get(target)?.fields.some((field) => field.propertyName === 'invoke'))
    throw new ToolDefinitionError(
      'invalid_field_options',
      target.name,
      'invoke',
      "a tool argument cannot be named 'invoke': it would replace the invoke() method",
    );
  if (typeof (target.prototype as { invoke?: unknown } | undefined)?.invoke !== 'function')
    throw new ToolDefinitionError(
      'missing_invoke',
      target.name,
      undefined,
      'a tool class needs an invoke() method, which does the work',
    );
  const inputSchema = deepFreeze<JsonSchema>(schema);
  const validate = definitionChecked(target, () => compileInputValidator(inputSchema));
  for (const fieldDefault of defaults) checkDefault(target, inputSchema, fieldDefault);
  const compiled: CompiledToolClass = Object.freeze({
    target,
    llmTool: Object.freeze({ name, description, inputSchema }),
    validate,
    plans,
    fill: compileInstanceFiller(target, plans),
  });
  cache.set(target, { revision, builtAt: revision, compiled });
  return compiled;
}

/** Runs a schema compilation, turning ajv's refusal into a `ToolDefinitionError` that names the class. */
export function definitionChecked<T>(target: Function, compile: () => T, propertyName?: string): T {
  try {
    return compile();
  } catch (error) {
    if (!SchemaCompileError.isInstance(error)) throw error;
    if (error.code === 'invalid_pattern')
      throw new ToolDefinitionError('invalid_pattern', target.name, propertyName, error.reason);
    throw new ToolDefinitionError(
      'invalid_schema',
      target.name,
      propertyName,
      `its JSON Schema does not compile under strict ajv: ${error.reason}`,
    );
  }
}

/** A default must satisfy its own field's schema; otherwise every call leaving the field out would fail. */
function checkDefault(target: Function, root: JsonSchema, fieldDefault: FieldDefault): void {
  const { default: _ignored, ...fieldSchema } = fieldDefault.schema;
  const schema = root.$defs === undefined ? fieldSchema : { ...fieldSchema, $defs: root.$defs };
  const issues = definitionChecked(target, () => validateOnce(schema, fieldDefault.value), fieldDefault.propertyName);
  if (issues.length > 0) {
    const reachedFrom = fieldDefault.owner === target ? '' : ` (nested in tool class ${target.name})`;
    throw new ToolDefinitionError(
      'invalid_default',
      fieldDefault.owner.name,
      fieldDefault.propertyName,
      `default ${JSON.stringify(fieldDefault.value)} does not match the field's schema: ${formatIssues(issues)}${reachedFrom}`,
    );
  }
}

/** Freezes a value and everything it holds (schemas handed out are shared and must not change). */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const entry of Object.values(value)) deepFreeze(entry);
  }
  return value;
}
