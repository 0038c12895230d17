import { getMetadataStorage as getValidatorStorage } from 'class-validator';
import { targetConstructorToSchema } from 'class-validator-jsonschema';
import { classTransformerStorage as defaultMetadataStorage } from './class-transformer-storage';
import { JsonValue } from '../outcome/json-value';
import { ClassPlan, FieldPlan } from './class-plan';
import { FieldKind } from './field-kind';
import { FieldOptions } from './field-options';
import { getToolMetadataStorage } from './metadata-storage';
import { resolveFieldKind } from './resolve-field-kind';
import { ToolDefinitionError } from './tool-definition-error';

type Schema = Record<string, unknown>;

/** The schema of a class plus the plans of every class it reaches. */
export interface BuiltClassSchema {
  readonly schema: Schema;
  readonly plans: ReadonlyMap<Function, ClassPlan>;
}

/**
 * Builds the self-contained JSON Schema of a class: `type: "object"`, `properties`, `required`,
 * `additionalProperties: false`; nested classes inline, or under local `$defs` with `$ref` when the
 * field says `ref: true` (which recursive classes need). class-validator decorators on a property
 * (`@IsInt() @Min(1)`, `@IsOptional()`) add their keywords through class-validator-jsonschema.
 */
export function buildClassSchema(root: Function): BuiltClassSchema {
  const builder = new ClassSchemaBuilder();
  const schema = builder.objectSchema(root, []);
  if (builder.defs.size > 0) schema.$defs = Object.fromEntries(builder.defs);
  return { schema, plans: builder.plans };
}

class ClassSchemaBuilder {
  readonly defs = new Map<string, Schema>();
  readonly plans = new Map<Function, ClassPlan>();
  private readonly defNames = new Map<Function, string>();

  objectSchema(target: Function, stack: readonly Function[]): Schema {
    const storage = getToolMetadataStorage();
    const records = new Map(storage.fieldsOf(target).map((record) => [record.propertyName, record]));
    const validatorSchema = classValidatorSchema(target);
    const validatorProperties = (validatorSchema.properties ?? {}) as Record<string, Schema>;
    for (const name of Object.keys(validatorProperties))
      if (!records.has(name))
        records.set(name, { propertyName: name, designType: Reflect.getMetadata('design:type', target.prototype, name), options: {} });
    const properties: Record<string, Schema> = {};
    const required: string[] = [];
    const fields: FieldPlan[] = [];
    for (const record of records.values()) {
      const name = record.propertyName;
      const kind = resolveFieldKind(target, name, record.designType, record.options);
      const traits = storage.traitsOf(target, name);
      const property = this.kindSchema(kind, target, name, [...stack, target]);
      mergeValidatorKeywords(property, validatorProperties[name]);
      if (record.options.schema !== undefined) Object.assign(property, record.options.schema);
      const description = record.options.description ?? traits?.description;
      if (description !== undefined) property.description = description;
      const defaultValue: JsonValue | undefined = record.options.default ?? traits?.default;
      if (defaultValue !== undefined) property.default = defaultValue;
      properties[name] = property;
      if (isRequired(record.options, defaultValue, name, validatorSchema)) required.push(name);
      fields.push({ propertyName: name, kind });
    }
    this.plans.set(target, { target, fields });
    return { type: 'object', properties, required, additionalProperties: false };
  }

  private kindSchema(kind: FieldKind, owner: Function, property: string, stack: readonly Function[]): Schema {
    switch (kind.kind) {
      case 'string':
      case 'number':
      case 'integer':
      case 'boolean':
        return { type: kind.kind };
      case 'enum':
        return enumSchema(kind.values);
      case 'array':
        return { type: 'array', items: this.kindSchema(kind.items, owner, property, stack) };
      case 'object':
        return this.nestedSchema(kind.target, kind.ref, owner, property, stack);
    }
  }

  private nestedSchema(target: Function, ref: boolean, owner: Function, property: string, stack: readonly Function[]): Schema {
    if (!getToolMetadataStorage().hasAnyMetadata(target) && classValidatorSchema(target).properties === undefined)
      throw new ToolDefinitionError('unsupported_field_type', owner.name, property, `class ${target.name} has no @Field properties; decorate its fields`);
    if (ref) {
      const existing = this.defNames.get(target);
      if (existing !== undefined) return { $ref: `#/$defs/${existing}` };
      const name = this.uniqueDefName(target);
      this.defNames.set(target, name);
      this.defs.set(name, {});
      this.defs.set(name, this.objectSchema(target, []));
      return { $ref: `#/$defs/${name}` };
    }
    if (stack.includes(target))
      throw new ToolDefinitionError(
        'circular_reference',
        owner.name,
        property,
        `${target.name} nests itself; mark the field \`@Field({ type: () => ${target.name}, ref: true })\` to emit a $ref`,
      );
    return this.objectSchema(target, stack);
  }

  private uniqueDefName(target: Function): string {
    let name = target.name || 'Anonymous';
    for (let suffix = 2; this.defs.has(name); suffix++) name = `${target.name}${suffix}`;
    return name;
  }
}

function enumSchema(values: readonly (string | number)[]): Schema {
  if (values.every((value) => typeof value === 'string')) return { type: 'string', enum: [...values] };
  if (values.every((value) => typeof value === 'number'))
    return { type: values.every((value) => Number.isInteger(value)) ? 'integer' : 'number', enum: [...values] };
  return { type: ['string', 'number'], enum: [...values] };
}

function isRequired(options: FieldOptions, defaultValue: unknown, name: string, validatorSchema: Schema): boolean {
  if (options.optional === true || defaultValue !== undefined) return false;
  const known = (validatorSchema.properties as Record<string, unknown> | undefined)?.[name] !== undefined;
  return !known || ((validatorSchema.required as string[] | undefined) ?? []).includes(name);
}

function classValidatorSchema(target: Function): Schema {
  const metadatas = getValidatorStorage().getTargetValidationMetadatas(target, '', true, false);
  if (metadatas.length === 0) return {};
  return targetConstructorToSchema(target, { classTransformerMetadataStorage: defaultMetadataStorage }) as Schema;
}

/** Adds class-validator's keywords, leaving out its cross-class `$ref`s (nesting is ours). */
function mergeValidatorKeywords(property: Schema, validator: Schema | undefined): void {
  if (validator === undefined) return;
  for (const [keyword, value] of Object.entries(validator)) {
    if (containsRef(value) || keyword === '$ref') continue;
    if (keyword === 'type' && (property.type === 'object' || property.$ref !== undefined)) continue;
    property[keyword] = value;
  }
}

function containsRef(value: unknown): boolean {
  return typeof value === 'object' && value !== null && JSON.stringify(value).includes('"$ref"');
}
