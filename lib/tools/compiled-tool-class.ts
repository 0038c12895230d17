import { JsonSchema } from '../contract/json-schema';
import { LlmTool } from '../contract/llm-tool';
import { buildClassSchema } from '../reflect/build-class-schema';
import { ClassPlan } from '../reflect/class-plan';
import { getToolMetadataStorage } from '../reflect/metadata-storage';
import { toolClassInfo } from '../reflect/tool-class-info';
import { compileInstanceFiller, InstanceFiller } from './build-instance';
import { CompiledSchemaValidator, compileInputValidator } from '../validation/schema-validator';

/** Everything derived once per tool class: the model-visible tool, the validator, the instance plans and filler. */
export interface CompiledToolClass {
  readonly target: Function;
  readonly llmTool: LlmTool;
  readonly validate: CompiledSchemaValidator;
  readonly plans: ReadonlyMap<Function, ClassPlan>;
  /** Fills an instance of the class from validated arguments. */
  readonly fill: InstanceFiller;
}

const cache = new WeakMap<Function, { revision: number; compiled: CompiledToolClass }>();

/**
 * Compiles a tool class once (cached until its metadata changes): schema, ajv validator and
 * instance plans. Definition errors (bad types, cycles, a missing description) surface here.
 */
export function compileToolClass(target: Function): CompiledToolClass {
  const revision = getToolMetadataStorage().currentRevision;
  const cached = cache.get(target);
  if (cached !== undefined && cached.revision === revision) return cached.compiled;
  const { name, description } = toolClassInfo(target);
  const { schema, plans } = buildClassSchema(target);
  const inputSchema = deepFreeze<JsonSchema>(schema);
  const compiled: CompiledToolClass = Object.freeze({
    target,
    llmTool: Object.freeze({ name, description, inputSchema }),
    validate: compileInputValidator(inputSchema),
    plans,
    fill: compileInstanceFiller(target, plans),
  });
  cache.set(target, { revision, compiled });
  return compiled;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const entry of Object.values(value)) deepFreeze(entry);
  }
  return value;
}
