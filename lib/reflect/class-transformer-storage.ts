import type { MetadataStorage } from 'class-transformer/types/MetadataStorage';
import type { TypeMetadata } from 'class-transformer/types/interfaces';

/**
 * class-transformer's metadata storage (where `@Type(() => Address)` is recorded). Its module has
 * no type declarations of its own, hence the typed require.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const classTransformerStorage = (require('class-transformer/cjs/storage') as { defaultMetadataStorage: MetadataStorage })
  .defaultMetadataStorage;

/** The `@Type` records of class-transformer 0.5, by class then property (an internal map, read only). */
const typeRecords = (classTransformerStorage as unknown as { _typeMetadatas?: unknown })._typeMetadatas;

/**
 * The `@Type(...)` metadata of a property, on the class or its nearest ancestor: what
 * `findTypeMetadata` returns, without its ancestor cache, which holds every class it is asked
 * about in a strong map for the life of the process. Falls back to `findTypeMetadata` when the
 * storage does not have the expected shape.
 */
export function findTransformerTypeMetadata(target: Function, propertyName: string): TypeMetadata | undefined {
  if (!(typeRecords instanceof Map)) return classTransformerStorage.findTypeMetadata(target, propertyName);
  for (let type: unknown = target; typeof type === 'function' && type !== Function.prototype; type = Object.getPrototypeOf(type)) {
    const record = (typeRecords.get(type) as Map<string, TypeMetadata> | undefined)?.get(propertyName);
    if (record !== undefined) return record;
  }
  return undefined;
}
