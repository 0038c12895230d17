import { SchemaNode } from '../contract/json-schema';
import type { targetConstructorToSchema as TargetConstructorToSchema } from 'class-validator-jsonschema';
import type { IOptions as ValidatorSchemaOptions } from 'class-validator-jsonschema/build/options';
import { loadOptionalDependency } from '../errors/optional-dependency';
import { classTransformerStorage } from './class-transformer-storage';

/** What wuwe reads of class-validator's metadata storage. */
interface ValidatorMetadataStorage {
  getTargetValidationMetadatas(
    target: Function,
    targetSchema: string,
    always: boolean,
    strictGroups: boolean,
  ): readonly unknown[];
}

/**
 * class-validator's metadata storage, where its decorators record themselves. class-validator keeps
 * it on `globalThis` (`getMetadataStorage()` returns it, shared by every copy of the package) and
 * creates it when it is first loaded: until some code loads class-validator, no class can have
 * class-validator metadata, and wuwe loads neither class-validator nor class-validator-jsonschema
 * (about 330 modules; both are optional peers).
 */
function validatorStorage(): ValidatorMetadataStorage | undefined {
  return (globalThis as { classValidatorMetadataStorage?: ValidatorMetadataStorage }).classValidatorMetadataStorage;
}

/**
 * The JSON Schema class-validator-jsonschema derives from the class-validator decorators of a class
 * (`{}` when it has none).
 *
 * @throws MissingDependencyError naming `class-validator-jsonschema` when the class uses class-validator
 *   decorators and that package is not installed.
 */
export function classValidatorSchema(target: Function): SchemaNode {
  const metadatas = validatorStorage()?.getTargetValidationMetadatas(target, '', true, false);
  if (metadatas === undefined || metadatas.length === 0) return {};
  const { targetConstructorToSchema } = loadOptionalDependency<{
    targetConstructorToSchema: typeof TargetConstructorToSchema;
  }>('class-validator-jsonschema', `the class-validator decorators of ${target.name || 'a class'}`);
  // wuwe reads only `findTypeMetadata`; class-validator-jsonschema reads the rest of the same storage.
  const classTransformerMetadataStorage =
    classTransformerStorage() as ValidatorSchemaOptions['classTransformerMetadataStorage'];
  return targetConstructorToSchema(target, { classTransformerMetadataStorage }) as SchemaNode;
}
/**
 * Adds class-validator's keywords, leaving out its cross-class `$ref`s (nesting is ours). The
 * structure we derived wins: a keyword already present is kept (class-validator's `@IsArray()`
 * says `items: {}`, which must not widen `type: () => [String]`), except that `integer` narrows
 * `number` (`@IsInt()`), and `items` constraints merge into ours (`@MaxLength(5, { each: true })`).
 * `not: { type: "null" }` (`@IsDefined()`) is dropped where the type already excludes null: strict
 * ajv refuses it there, and it adds nothing.
 */
export function mergeValidatorKeywords(property: SchemaNode, validator: SchemaNode | undefined): void {
  if (validator === undefined) return;
  for (const [keyword, value] of Object.entries(validator)) {
    if (containsRef(value) || keyword === '$ref') continue;
    if (keyword === 'not' && isNullType(value) && !typeAllowsNull(property.type ?? validator.type)) continue;
    const current = property[keyword];
    if (current === undefined) {
      if (keyword === 'type' && property.$ref !== undefined) continue;
      property[keyword] = value;
    } else if (keyword === 'type' && current === 'number' && value === 'integer') property.type = 'integer';
    else if (keyword === 'items' && isSchemaObject(current) && isSchemaObject(value))
      mergeValidatorKeywords(current, value);
  }
}

function isSchemaObject(value: unknown): value is SchemaNode {
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
