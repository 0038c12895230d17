/** What wuwe reads of a class-transformer `@Type(() => X)` record. */
export interface TransformerTypeMetadata {
  /** The thunk given to `@Type`. */
  readonly typeFunction?: (options?: unknown) => unknown;
}

/** What wuwe reads of class-transformer's metadata storage (the parts class-validator-jsonschema reads too). */
export interface TransformerMetadataStorage {
  findTypeMetadata(target: Function, propertyName: string): TransformerTypeMetadata | undefined;
}

let storage: TransformerMetadataStorage | null | undefined;

/**
 * class-transformer's metadata storage (where `@Type(() => Address)` is recorded), or `undefined`
 * when class-transformer is not installed: it is an optional peer, and a program that never imported
 * it can have recorded no `@Type`. Loaded on first need, once; its storage module has no type
 * declarations of its own.
 */
export function classTransformerStorage(): TransformerMetadataStorage | undefined {
  if (storage === undefined) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      storage = (require('class-transformer/cjs/storage') as { defaultMetadataStorage: TransformerMetadataStorage })
        .defaultMetadataStorage;
    } catch (error) {
      if ((error as { code?: unknown } | null)?.code !== 'MODULE_NOT_FOUND') throw error;
      storage = null;
    }
  }
  return storage ?? undefined;
}

/**
 * The `@Type(...)` metadata of a property, on the class or its nearest ancestor: what
 * `findTypeMetadata` returns, without its ancestor cache, which holds every class it is asked
 * about in a strong map for the life of the process. Falls back to `findTypeMetadata` when the
 * storage does not have the expected shape (class-transformer 0.5 keeps the records in an internal
 * map, by class then property), and answers `undefined` when class-transformer is not installed.
 */
export function findTransformerTypeMetadata(
  target: Function,
  propertyName: string,
): TransformerTypeMetadata | undefined {
  const loaded = classTransformerStorage();
  if (loaded === undefined) return undefined;
  const typeRecords = (loaded as unknown as { _typeMetadatas?: unknown })._typeMetadatas;
  if (!(typeRecords instanceof Map)) return loaded.findTypeMetadata(target, propertyName);
  for (
    let type: unknown = target;
    typeof type === 'function' && type !== Function.prototype;
    type = Object.getPrototypeOf(type)
  ) {
    const record = (typeRecords.get(type) as Map<string, TransformerTypeMetadata> | undefined)?.get(propertyName);
    if (record !== undefined) return record;
  }
  return undefined;
}
