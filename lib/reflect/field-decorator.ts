import { FieldDecorator } from './field-check';
import { FieldOptions, FieldTraits } from './field-options';
import { FieldRecord } from './field-record';
import { getToolMetadataStorage } from './metadata-storage';
import { isStandardDecoratorContext, recordStandardField, StandardDecoratorContext } from './standard-decorators';
import { ToolDefinitionError } from './tool-definition-error';

/**
 * Marks a property as a tool argument. Works with legacy decorators (`experimentalDecorators`) and
 * with TC39 standard decorators, told apart by how it is called.
 *
 * The type comes from `design:type` where the compiler emits it (tsc, ts-node, ts-jest with legacy
 * decorators and `emitDecoratorMetadata`, plus `import 'reflect-metadata'`); arrays and nested
 * classes take an explicit type (`type: () => [Address]`), enums take `enum`. Where no
 * `design:type` exists (standard decorators, esbuild, tsx, swc without decorator metadata, Bun,
 * vitest) every field states its type: `type: 'string'`, `type: String`, `type: [String]`,
 * `type: () => Address`. The compiler checks that a `?` property says `optional: true` and that a
 * literal union lists its values with `enum`.
 */
export function Field<const O extends FieldOptions = Record<never, never>>(options?: O): FieldDecorator<O>;
export function Field(options: FieldOptions = {}): (target: unknown, key: unknown) => void {
  return (target: unknown, key: unknown) => {
    if (isStandardDecoratorContext(key)) standardField(options, key);
    else legacyField(options, target as object, key as string | symbol);
  };
}

function legacyField(options: FieldOptions, prototype: object, propertyKey: string | symbol): void {
  // On a static member the decorator receives the class itself; its `constructor` is `Function`.
  if (typeof prototype === 'function')
    throw new ToolDefinitionError(
      'invalid_field_options',
      prototype.name,
      String(propertyKey),
      '@Field() marks instance properties; a static member cannot be an argument',
    );
  const target = prototype.constructor;
  if (typeof propertyKey !== 'string')
    throw new ToolDefinitionError(
      'invalid_field_options',
      target.name,
      String(propertyKey),
      'a field must have a string name',
    );
  const reflect = Reflect as { getMetadata?: unknown; hasMetadata?: unknown };
  const hasReflectMetadata = typeof reflect.getMetadata === 'function' && typeof reflect.hasMetadata === 'function';
  const reflected = hasReflectMetadata && Reflect.hasMetadata('design:type', prototype, propertyKey);
  const designType: unknown = reflected ? Reflect.getMetadata('design:type', prototype, propertyKey) : undefined;
  if (!hasReflectMetadata && options.type === undefined)
    throw new ToolDefinitionError(
      'reflect_metadata_missing',
      target.name,
      propertyKey,
      "Reflect.getMetadata is missing: add `import 'reflect-metadata'` once at the entry of the program, or give the type with `@Field({ type: ... })`",
    );
  getToolMetadataStorage().addField(target, { propertyName: propertyKey, designType, reflected, options });
}

function standardField(options: FieldOptions, context: StandardDecoratorContext): void {
  const propertyName = typeof context.name === 'string' ? context.name : String(context.name);
  const problem =
    context.kind !== 'field'
      ? `@Field() marks class fields, not a ${context.kind}`
      : context.static === true
        ? '@Field() marks instance properties; a static member cannot be an argument'
        : context.private === true || typeof context.name !== 'string'
          ? 'a field must have a public string name (a #private field cannot be filled from arguments)'
          : undefined;
  if (context.metadata === undefined || context.metadata === null)
    throw new ToolDefinitionError(
      'reflect_metadata_missing',
      '(class being defined)',
      propertyName,
      'standard decorators gave no context.metadata: this compiler does not support decorator metadata; load wuwe before the class is defined so Symbol.metadata exists',
    );
  const record: FieldRecord = {
    propertyName,
    designType: undefined,
    reflected: false,
    options,
    ...(problem === undefined ? {} : { problem }),
  };
  recordStandardField(context.metadata, record);
}

/**
 * Gives a description or a default to a field of a class you cannot change (the seed's
 * `tool_field_traits`). Later calls merge with earlier ones.
 */
export function fieldTraits(target: Function, propertyName: string, traits: FieldTraits): void {
  getToolMetadataStorage().addTraits(target, propertyName, traits);
}
