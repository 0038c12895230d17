import { loadOptionalDependency } from '../errors/optional-dependency';

/** `@nestjs/core`, loaded on first use. */
export type NestCoreModule = typeof import('@nestjs/core');
/** `@nestjs/common`, loaded on first use. */
export type NestCommonModule = typeof import('@nestjs/common');

/** Loads `@nestjs/core` (a `MissingDependencyError` naming it when it is not installed). */
export function loadNestCore(feature: string): NestCoreModule {
  return loadOptionalDependency<NestCoreModule>('@nestjs/core', feature);
}

/** Loads `@nestjs/common` (a `MissingDependencyError` naming it when it is not installed). */
export function loadNestCommon(feature: string): NestCommonModule {
  return loadOptionalDependency<NestCommonModule>('@nestjs/common', feature);
}
