import { FieldOptions, FieldTraits } from './field-options';
import { getToolMetadataStorage } from './metadata-storage';
import { ToolDefinitionError } from './tool-definition-error';

/**
 * Marks a property as a tool argument. Its type comes from `design:type` where that suffices;
 * arrays and nested classes take a thunk (`type: () => [Address]`), enums take `enum`.
 * Needs `emitDecoratorMetadata` and `import 'reflect-metadata'`.
 */
export function Field(options: FieldOptions = {}): PropertyDecorator {
  return (prototype, propertyKey) => {
    // On a static member the decorator receives the class itself; its `constructor` is `Function`.
    if (typeof prototype === 'function')
      throw new ToolDefinitionError('invalid_field_options', prototype.name, String(propertyKey), '@Field() marks instance properties; a static member cannot be an argument');
    const target = prototype.constructor;
    if (typeof propertyKey !== 'string')
      throw new ToolDefinitionError('invalid_field_options', target.name, String(propertyKey), 'a field must have a string name');
    if (typeof Reflect !== 'object' || typeof (Reflect as { getMetadata?: unknown }).getMetadata !== 'function')
      throw new ToolDefinitionError(
        'reflect_metadata_missing',
        target.name,
        propertyKey,
        "Reflect.getMetadata is missing: add `import 'reflect-metadata'` once at the entry of the program",
      );
    const designType: unknown = Reflect.getMetadata('design:type', prototype, propertyKey);
    getToolMetadataStorage().addField(target, { propertyName: propertyKey, designType, options });
  };
}

/**
 * Gives a description or a default to a field of a class you cannot change (the seed's
 * `tool_field_traits`). Later calls merge with earlier ones.
 */
export function fieldTraits(target: Function, propertyName: string, traits: FieldTraits): void {
  getToolMetadataStorage().addTraits(target, propertyName, traits);
}
