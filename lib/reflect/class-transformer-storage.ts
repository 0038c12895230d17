import type { MetadataStorage } from 'class-transformer/types/MetadataStorage';

/**
 * class-transformer's metadata storage (where `@Type(() => Address)` is recorded). Its module has
 * no type declarations of its own, hence the typed require.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const classTransformerStorage = (require('class-transformer/cjs/storage') as { defaultMetadataStorage: MetadataStorage })
  .defaultMetadataStorage;
