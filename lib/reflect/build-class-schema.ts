import { SchemaNode } from '../contract/json-schema';
import { JsonValue } from '../outcome/json-value';
import { classValidatorSchema, mergeValidatorKeywords } from './class-validator-schema';
import { initializerDefault, probeInstance, warnUndecoratedProperties } from './instance-initializers';
import { ClassPlan, FieldPlan } from './class-plan';
import { FieldKind } from './field-kind';
import { FieldOptions } from './field-options';
import { FieldRecord } from './field-record';
import { getToolMetadataStorage } from './metadata-storage';
import { resolveFieldKind } from './resolve-field-kind';
import { ToolDefinitionError } from './tool-definition-error';

/**
 * Keys argument parsing always refuses (see `guardJsonValue`), so a field with one of these names could never be given.
 */
const UNREACHABLE_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

/** A field default, with the schema it must satisfy (checked by the caller once the whole schema exists). */
export interface FieldDefault {
  readonly owner: Function;
  readonly propertyName: string;
  /** The field's schema (it may `$ref` the root's `$defs`). */
  readonly schema: Readonly<Record<string, unknown>>;
  readonly value: JsonValue;
}

/** The schema of a class plus the plans of every class it reaches and every default it declares. */
export interface BuiltClassSchema {
  readonly schema: SchemaNode;
  readonly plans: ReadonlyMap<Function, ClassPlan>;
  readonly defaults: readonly FieldDefault[];
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
  return { schema, plans: builder.plans, defaults: builder.defaults };
}

class ClassSchemaBuilder {
  readonly defs = new Map<string, SchemaNode>();
  readonly plans = new Map<Function, ClassPlan>();
  readonly defaults: FieldDefault[] = [];
  private readonly defNames = new Map<Function, string>();

  objectSchema(target: Function, stack: readonly Function[]): SchemaNode {
    const storage = getToolMetadataStorage();
    const records = new Map(storage.fieldsOf(target).map((record) => [record.propertyName, record]));
    const validatorSchema = classValidatorSchema(target);
    const validatorProperties = (validatorSchema.properties ?? {}) as Record<string, SchemaNode>;
    for (const name of Object.keys(validatorProperties))
      if (!records.has(name)) records.set(name, validatorOnlyRecord(target, name));
    const instance = probeInstance(target);
    if (instance !== undefined) warnUndecoratedProperties(target, instance, records);
    const properties: Record<string, SchemaNode> = {};
    const required: string[] = [];
    const fields: FieldPlan[] = [];
    for (const record of records.values()) {
      const name = record.propertyName;
      if (UNREACHABLE_NAMES.has(name))
        throw new ToolDefinitionError(
          'invalid_field_options',
          target.name,
          name,
          `'${name}' cannot be an argument name: argument parsing refuses the key`,
        );
      const kind = resolveFieldKind(target, record, validatorProperties[name]?.items);
      const traits = storage.fieldTraitsOf(target, name);
      const property = this.kindSchema(kind, target, name, [...stack, target]);
      mergeValidatorKeywords(property, validatorProperties[name]);
      if (record.options.schema !== undefined) Object.assign(property, record.options.schema);
      const description = traits.description;
      if (description !== undefined) property.description = description;
      const defaultValue: JsonValue | undefined = initializerDefault(target, name, instance, traits.default);
      if (defaultValue !== undefined) {
        property.default = defaultValue;
        this.defaults.push({ owner: target, propertyName: name, schema: property, value: defaultValue });
      }
      properties[name] = property;
      if (isRequired(record.options, defaultValue, name, validatorSchema)) required.push(name);
      fields.push({ propertyName: name, kind });
    }
    this.plans.set(target, { target, fields });
    return { type: 'object', properties, required, additionalProperties: false };
  }

  private kindSchema(kind: FieldKind, owner: Function, property: string, stack: readonly Function[]): SchemaNode {
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

  private nestedSchema(
    target: Function,
    ref: boolean,
    owner: Function,
    property: string,
    stack: readonly Function[],
  ): SchemaNode {
    if (!getToolMetadataStorage().hasAnyMetadata(target) && classValidatorSchema(target).properties === undefined)
      throw new ToolDefinitionError(
        'unsupported_field_type',
        owner.name,
        property,
        `class ${target.name} has no @Field properties; decorate its fields`,
      );
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

  /**
   * The class name made safe for a `$ref` fragment and for model APIs that restrict `$defs` keys
   * (characters outside `[A-Za-z0-9_-]` become `_`), with a numeric suffix when taken.
   */
  private uniqueDefName(target: Function): string {
    const base = (target.name || 'Anonymous').replace(/[^A-Za-z0-9_-]/g, '_');
    let name = base;
    for (let suffix = 2; this.defs.has(name); suffix++) name = `${base}${suffix}`;
    return name;
  }
}

/** A property class-validator decorates without `@Field`: its `design:type` where the compiler emitted one. */
function validatorOnlyRecord(target: Function, name: string): FieldRecord {
  const reflected =
    typeof Reflect.hasMetadata === 'function' && Reflect.hasMetadata('design:type', target.prototype, name);
  return {
    propertyName: name,
    designType: reflected ? Reflect.getMetadata('design:type', target.prototype, name) : undefined,
    reflected,
    options: {},
  };
}

function enumSchema(values: readonly (string | number)[]): SchemaNode {
  if (values.every((value) => typeof value === 'string')) return { type: 'string', enum: [...values] };
  if (values.every((value) => typeof value === 'number'))
    return { type: values.every((value) => Number.isInteger(value)) ? 'integer' : 'number', enum: [...values] };
  return { type: ['string', 'number'], enum: [...values] };
}

function isRequired(options: FieldOptions, defaultValue: unknown, name: string, validatorSchema: SchemaNode): boolean {
  if (options.optional === true || defaultValue !== undefined) return false;
  const known = (validatorSchema.properties as Record<string, unknown> | undefined)?.[name] !== undefined;
  return !known || ((validatorSchema.required as string[] | undefined) ?? []).includes(name);
}
