import { findTransformerTypeMetadata } from './class-transformer-storage';
import { FieldKind } from './field-kind';
import { FieldRecord } from './field-record';
import { ToolDefinitionError, ToolDefinitionErrorCode } from './tool-definition-error';

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

/** What to do when the compiler emitted no `design:type` and the type must be given instead. */
export const NO_DESIGN_TYPE =
  'the compiler emitted no design:type for this property (standard decorators, esbuild, tsx, swc without decoratorMetadata, Bun and vitest emit none). ' +
  'Give its type: `@Field({ type: String })`, `type: [Address]`, `type: () => Address`; or compile with `experimentalDecorators` and `emitDecoratorMetadata` ' +
  "on a compiler that honours them (tsc, ts-node, ts-jest, swc with decoratorMetadata) and `import 'reflect-metadata'`";

type Fail = (code: ToolDefinitionErrorCode, detail: string) => never;

/**
 * Works out a field's type. An explicit `enum` or `type` wins, then class-transformer's `@Type`,
 * then `design:type`. An array without an explicit item type takes its scalar or enum item type from
 * class-validator's schema of the property (`@IsString({ each: true })`, `@IsEnum(E, { each: true })`)
 * when given as `validatorItems`. Whether an `enum` or `@Type` field is a list comes from
 * `array`, else from `design:type`. When reflection says only `Object` or `Array`, names an
 * unsupported type, or is absent, throws a {@link ToolDefinitionError} that names the class and
 * property and tells the fix.
 */
export function resolveFieldKind(owner: Function, record: FieldRecord, validatorItems?: unknown): FieldKind {
  const { propertyName, designType, reflected, options } = record;
  const fail: Fail = (code, detail) => {
    throw new ToolDefinitionError(code, owner.name, propertyName, detail);
  };
  if (record.problem !== undefined) fail('invalid_field_options', record.problem);
  const ref = options.ref === true;
  const declared = options.type === undefined ? undefined : declaredType(options.type);
  const isList = (what: string): boolean => {
    if (options.array !== undefined) return options.array;
    if (Array.isArray(declared)) return true;
    if (!reflected)
      return fail(
        'missing_design_type',
        `${NO_DESIGN_TYPE}; for ${what}, say whether it is a list with \`array: true\` or \`array: false\``,
      );
    return designType === Array;
  };
  if (options.enum !== undefined) {
    const values = enumValues(options.enum);
    if (values.length === 0) fail('invalid_field_options', '`enum` has no values');
    const unrepresentable = values.find(
      (value) => !(typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))),
    );
    if (unrepresentable !== undefined)
      fail(
        'invalid_field_options',
        `\`enum\` value ${String(unrepresentable)} has no JSON form; use strings or finite numbers`,
      );
    const item: FieldKind = { kind: 'enum', values };
    return isList('an `enum` field') ? { kind: 'array', items: item } : item;
  }
  if (typeof declared === 'string') {
    if (!['string', 'number', 'integer', 'boolean'].includes(declared))
      fail('invalid_field_options', `unknown type name '${declared}'`);
    return options.array === true
      ? { kind: 'array', items: { kind: declared as 'string' } }
      : { kind: declared as 'string' };
  }
  if (declared !== undefined) {
    if (Array.isArray(declared)) {
      if (declared.length !== 1)
        fail(
          'invalid_field_options',
          'an array type must name exactly one item type, e.g. `[String]` or `() => [Address]`',
        );
      if (options.array === false)
        fail('invalid_field_options', '`array: false` contradicts the list type given with `type`');
      return { kind: 'array', items: itemKind(declared[0], ref, fail) };
    }
    const item = itemKind(declared, ref, fail);
    return options.array === true ? { kind: 'array', items: item } : item;
  }
  const transformerType = findTransformerTypeMetadata(owner, propertyName)?.typeFunction?.();
  if (typeof transformerType === 'function') {
    const item = itemKind(transformerType, ref, fail);
    return isList('a class-transformer `@Type` field') ? { kind: 'array', items: item } : item;
  }
  if (!reflected) return fail('missing_design_type', NO_DESIGN_TYPE);
  if (designType === Array) {
    const items = scalarItemKind(validatorItems);
    if (items !== undefined) return { kind: 'array', items };
    return fail(
      'unsupported_field_type',
      'arrays need an explicit item type: `@Field({ type: [String] })` or `type: () => [Address]`',
    );
  }
  if (designType === Object || designType === undefined)
    return fail(
      'unsupported_field_type',
      'reflection cannot tell this type (a union, `any`, an interface or a type alias); give it explicitly: `@Field({ type: ... })` or `@Field({ enum: [...] })`',
    );
  return itemKind(designType, ref, fail);
}

/** The `type` option with a thunk (an arrow function: it has no `prototype`) called. */
function declaredType(type: unknown): unknown {
  return typeof type === 'function' && !Object.prototype.hasOwnProperty.call(type, 'prototype')
    ? (type as () => unknown)()
    : type;
}

/** The item kind class-validator's item schema states: an enum of strings or numbers, or a scalar type. */
function scalarItemKind(items: unknown): FieldKind | undefined {
  if (typeof items !== 'object' || items === null) return undefined;
  const schema = items as { type?: unknown; enum?: unknown };
  if (
    Array.isArray(schema.enum) &&
    schema.enum.length > 0 &&
    schema.enum.every((value) => typeof value === 'string' || typeof value === 'number')
  )
    return { kind: 'enum', values: enumValues(schema.enum) };
  if (schema.type === 'string' || schema.type === 'number' || schema.type === 'integer' || schema.type === 'boolean')
    return { kind: schema.type };
  return undefined;
}

function itemKind(type: unknown, ref: boolean, fail: Fail): FieldKind {
  if (type === String) return { kind: 'string' };
  if (type === Number) return { kind: 'number' };
  if (type === Boolean) return { kind: 'boolean' };
  const unsupported = UNSUPPORTED.get(type);
  if (unsupported !== undefined) return fail('unsupported_field_type', `${unsupported} cannot be a tool argument`);
  if (type === Array || type === Object || Array.isArray(type))
    return fail('unsupported_field_type', 'nested arrays and untyped objects are not supported; use a nested class');
  if (typeof type === 'function') return { kind: 'object', target: type, ref };
  if (typeof type === 'object' && type !== null)
    return { kind: 'enum', values: enumValues(type as Record<string, string | number>) };
  return fail('unsupported_field_type', `type ${String(type)} cannot be a tool argument`);
}

/** Values of a TS enum object (numeric reverse mappings dropped) or of a literal array, deduplicated. */
export function enumValues(
  source: Record<string, string | number> | readonly (string | number)[],
): (string | number)[] {
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
