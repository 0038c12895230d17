import type { getMetadataStorage as GetValidatorStorage } from 'class-validator';
import type { targetConstructorToSchema as TargetConstructorToSchema } from 'class-validator-jsonschema';
import { classTransformerStorage as defaultMetadataStorage } from './class-transformer-storage';

type Schema = Record<string, unknown>;

interface ValidatorModules {
  readonly getValidatorStorage: typeof GetValidatorStorage;
  readonly targetConstructorToSchema: typeof TargetConstructorToSchema;
}

let modules: ValidatorModules | undefined;

/**
 * class-validator and class-validator-jsonschema, loaded on first need (about 330 modules). Until
 * some class uses a class-validator decorator, class-validator has not created its metadata storage
 * (`globalThis.classValidatorMetadataStorage`), so no class can have class-validator metadata and
 * neither module is loaded.
 */
function validatorModules(): ValidatorModules | undefined {
  if (modules !== undefined) return modules;
  if ((globalThis as { classValidatorMetadataStorage?: unknown }).classValidatorMetadataStorage === undefined) return undefined;
  /* eslint-disable @typescript-eslint/no-require-imports */
  modules = {
    getValidatorStorage: (require('class-validator') as { getMetadataStorage: typeof GetValidatorStorage }).getMetadataStorage,
    targetConstructorToSchema: (require('class-validator-jsonschema') as { targetConstructorToSchema: typeof TargetConstructorToSchema })
      .targetConstructorToSchema,
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
  return modules;
}

/** The JSON Schema class-validator-jsonschema derives from the class-validator decorators of a class (`{}` when it has none). */
export function classValidatorSchema(target: Function): Schema {
  const loaded = validatorModules();
  if (loaded === undefined) return {};
  const metadatas = loaded.getValidatorStorage().getTargetValidationMetadatas(target, '', true, false);
  if (metadatas.length === 0) return {};
  return loaded.targetConstructorToSchema(target, { classTransformerMetadataStorage: defaultMetadataStorage }) as Schema;
}
/**
 * Adds class-validator's keywords, leaving out its cross-class `$ref`s (nesting is ours). The
 * structure we derived wins: a keyword already present is kept (class-validator's `@IsArray()`
 * says `items: {}`, which must not widen `type: () => [String]`), except that `integer` narrows
 * `number` (`@IsInt()`), and `items` constraints merge into ours (`@MaxLength(5, { each: true })`).
 * `not: { type: "null" }` (`@IsDefined()`) is dropped where the type already excludes null: strict
 * ajv refuses it there, and it adds nothing.
 */
export function mergeValidatorKeywords(property: Schema, validator: Schema | undefined): void {
  if (validator === undefined) return;
  for (const [keyword, value] of Object.entries(validator)) {
    if (containsRef(value) || keyword === '$ref') continue;
    if (keyword === 'not' && isNullType(value) && !typeAllowsNull(property.type ?? validator.type)) continue;
    const current = property[keyword];
    if (current === undefined) {
      if (keyword === 'type' && property.$ref !== undefined) continue;
      property[keyword] = value;
    } else if (keyword === 'type' && current === 'number' && value === 'integer') property.type = 'integer';
    else if (keyword === 'items' && isSchemaObject(current) && isSchemaObject(value)) mergeValidatorKeywords(current, value);
  }
}

function isSchemaObject(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isNullType(value: unknown): boolean {
  return isSchemaObject(value) && Object.keys(value).length === 1 && value.type === 'null';
}

function typeAllowsNull(type: unknown): boolean {
  return type === undefined || type === 'null' || (Array.isArray(type) && type.includes('null'));
}

function containsRef(value: unknown): boolean {
  return typeof value === 'object' && value !== null && JSON.stringify(value).includes('"$ref"');
}
