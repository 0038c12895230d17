import { hasErrorMarker } from './error-marker';
import { WuweError } from './wuwe-error';

const MISSING_DEPENDENCY_MARKER = Symbol.for('wuwe.error.MissingDependencyError');

/**
 * An optional back-end (a database driver, a model SDK, a plugin host) is not installed.
 *
 * Thrown when a class that needs it is first used (constructed or opened), never at import time.
 * The message names the package and the command that installs it.
 */
export class MissingDependencyError extends WuweError<'missing_dependency'> {
  /** The npm package that could not be loaded. */
  readonly packageName: string;
  /** What needed it, e.g. `SqliteRunStore`. */
  readonly feature: string;
  private readonly [MISSING_DEPENDENCY_MARKER] = true;

  constructor(packageName: string, feature: string, cause?: unknown) {
    super(
      'missing_dependency',
      `${feature} needs the optional package "${packageName}", which is not installed: run \`npm install ${packageName}\``,
      { cause },
    );
    this.packageName = packageName;
    this.feature = feature;
  }

  /** True when `value` is a MissingDependencyError, from this or another copy of the package. */
  static override isInstance(value: unknown): value is MissingDependencyError {
    return hasErrorMarker(value, MISSING_DEPENDENCY_MARKER);
  }
}

const loaded = new Map<string, unknown>();

/**
 * Loads an optional peer dependency on first use, once.
 *
 * @param packageName - the package to `require`.
 * @param feature - the wuwe class or function that needs it, for the error message.
 * @throws MissingDependencyError when the package is not installed. Any other failure while loading it
 *   (a native binding that cannot load) is also reported as MissingDependencyError, with the original
 *   error as `cause`.
 */
export function loadOptionalDependency<T>(packageName: string, feature: string): T {
  if (loaded.has(packageName)) return loaded.get(packageName) as T;
  let module: unknown;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    module = require(packageName);
  } catch (error) {
    throw new MissingDependencyError(packageName, feature, error);
  }
  loaded.set(packageName, module);
  return module as T;
}
