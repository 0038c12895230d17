import { findTransformerTypeMetadata } from './class-transformer-storage';
import { FieldOptions } from './field-options';
import { FieldKind } from './field-kind';
import { ToolDefinitionError } from './tool-definition-error';

const UNSUPPORTED = new Map<unknown, string>([
  [Function, 'functions'],
  [Map, 'Map'],
  [Set, 'Set'],
  [WeakMap, 'WeakMap'],
  [Symbol, 'Symbol'],
  [Promise, 'Promise'],
  [Date, 'Date (use a string field with a format)'],
  [BigInt, 'BigInt'],
]);

/**
 * Works out a field's type. An explicit `enum` or `type` wins, then class-transformer's `@Type`,
 * then `design:type`. An array without an explicit item type takes its scalar or enum item type from
 * class-validator's schema of the property (`@IsString({ each: true })`, `@IsEnum(E, { each: true })`)
 * when given as `validatorItems`. When reflection says only `Object` or `Array`, or names an
 * unsupported type, throws a {@link ToolDefinitionError} that names the class and property and tells the fix.
 */
export function resolveFieldKind(
  owner: Function,
  propertyName: string,
  designType: unknown,
  options: FieldOptions,
  validatorItems?: unknown,
): FieldKind {
  const fail = (code: 'unsupported_field_type' | 'invalid_field_options', detail: string): never => {
    throw new ToolDefinitionError(code, owner.name, propertyName, detail);
  };
  if (options.enum !== undefined) {
    const values = enumValues(options.enum);
    if (values.length === 0) fail('invalid_field_options', '`enum` has no values');
    const unrepresentable = values.find((value) => !(typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))));
    if (unrepresentable !== undefined)
      fail('invalid_field_options', `\`enum\` value ${String(unrepresentable)} has no JSON form; use strings or finite numbers`);
    return designType === Array ? { kind: 'array', items: { kind: 'enum', values } } : { kind: 'enum', values };
  }
  const ref = options.ref === true;
  if (typeof options.type === 'string') {
    if (!['string', 'number', 'integer', 'boolean'].includes(options.type)) fail('invalid_field_options', `unknown type name '${options.type}'`);
    return { kind: options.type };
  }
  if (typeof options.type === 'function') {
    const declared = options.type();
    if (Array.isArray(declared)) {
      if (declared.length !== 1) fail('invalid_field_options', 'an array type thunk must return exactly one item type, e.g. `() => [String]`');
      return { kind: 'array', items: itemKind(declared[0], ref, fail) };
    }
    return itemKind(declared, ref, fail);
  }
  const transformerType = findTransformerTypeMetadata(owner, propertyName)?.typeFunction?.();
  if (typeof transformerType === 'function') {
    const item = itemKind(transformerType, ref, fail);
    return designType === Array ? { kind: 'array', items: item } : item;
  }
  if (designType === Array) {
    const items = scalarItemKind(validatorItems);
    if (items !== undefined) return { kind: 'array', items };
    return fail('unsupported_field_type', 'arrays need an explicit item type: `@Field({ type: () => [String] })` or `() => [Address]`');
  }
  if (designType === Object || designType === undefined)
    return fail(
      'unsupported_field_type',
      'reflection cannot tell this type (a union, `any`, an interface or a type alias); give it explicitly: `@Field({ type: ... })` or `@Field({ enum: [...] })`',
    );
  return itemKind(designType, ref, fail);
}

/** The item kind class-validator's item schema states: an enum of strings or numbers, or a scalar type. */
function scalarItemKind(items: unknown): FieldKind | undefined {
  if (typeof items !== 'object' || items === null) return undefined;
  const schema = items as { type?: unknown; enum?: unknown };
  if (Array.isArray(schema.enum) && schema.enum.length > 0 && schema.enum.every((value) => typeof value === 'string' || typeof value === 'number'))
    return { kind: 'enum', values: enumValues(schema.enum) };
  if (schema.type === 'string' || schema.type === 'number' || schema.type === 'integer' || schema.type === 'boolean') return { kind: schema.type };
  return undefined;
}

function itemKind(type: unknown, ref: boolean, fail: (code: 'unsupported_field_type', detail: string) => never): FieldKind {
  if (type === String) return { kind: 'string' };
  if (type === Number) return { kind: 'number' };
  if (type === Boolean) return { kind: 'boolean' };
  const unsupported = UNSUPPORTED.get(type);
  if (unsupported !== undefined) return fail('unsupported_field_type', `${unsupported} cannot be a tool argument`);
  if (type === Array || type === Object) return fail('unsupported_field_type', 'nested arrays and untyped objects are not supported; use a nested class');
  if (typeof type === 'function') return { kind: 'object', target: type, ref };
  if (typeof type === 'object' && type !== null) return { kind: 'enum', values: enumValues(type as Record<string, string | number>) };
  return fail('unsupported_field_type', `type ${String(type)} cannot be a tool argument`);
}

/** Values of a TS enum object (numeric reverse mappings dropped) or of a literal array, deduplicated. */
export function enumValues(source: Record<string, string | number> | readonly (string | number)[]): (string | number)[] {
  if (Array.isArray(source)) return [...new Set(source as (string | number)[])];
  const record = source as Record<string, string | number>;
  const isReverseMapping = (key: string): boolean => {
    const name = record[key];
    return typeof name === 'string' && record[name] === Number(key);
  };
  const values = Object.keys(record)
    .filter((key) => !isReverseMapping(key))
    .map((key) => record[key]);
  return [...new Set(values)];
}
