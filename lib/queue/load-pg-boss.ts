import type PgBossModule from 'pg-boss';
import { loadOptionalDependency } from '../errors/optional-dependency';

/** The pg-boss class, as its types declare it. @internal */
export type PgBoss = PgBossModule;

/** The options of pg-boss's constructor. @internal */
export type PgBossOptions = PgBossModule.ConstructorOptions;

/**
 * Loads `pg-boss` on first use (an optional peer dependency): `MissingDependencyError` naming the
 * package when it is not installed. @internal
 */
export function loadPgBoss(feature: string): new (options: PgBossOptions) => PgBoss {
  return loadOptionalDependency<new (options: PgBossOptions) => PgBoss>('pg-boss', feature);
}
