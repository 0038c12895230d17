import { JsonValue } from '../outcome/json-value';
import { guardJsonValue } from '../validation/guard-json-value';
import { ToolDefinitionError } from './tool-definition-error';

const PROBE_LIMITS = { maxDepth: 64, maxBytes: 1 << 20 };

/**
 * An instance of the class built with no arguments, to read what its property initializers set
 * (`days = 3`), which no decorator metadata records. Undefined when the constructor takes
 * parameters (it is made by a container; its initializers cannot be read) or throws.
 */
export function probeInstance(target: Function): Record<string, unknown> | undefined {
  if (target.length > 0) return undefined;
  try {
    return new (target as new () => Record<string, unknown>)();
  } catch {
    return undefined;
  }
}

/**
 * The default of a field: its explicit `default` (from `@Field` or `fieldTraits`), else the value
 * its initializer gives a fresh instance. An initializer makes the argument optional, as the
 * instance would keep that value anyway. Throws {@link ToolDefinitionError} (`invalid_default`) when
 * the initializer's value is not JSON, or differs from an explicit default.
 */
export function initializerDefault(
  target: Function,
  propertyName: string,
  instance: Record<string, unknown> | undefined,
  explicit: JsonValue | undefined,
): JsonValue | undefined {
  if (instance === undefined || !Object.prototype.hasOwnProperty.call(instance, propertyName)) return explicit;
  const initial = instance[propertyName];
  if (initial === undefined) return explicit;
  const guarded = guardJsonValue(initial, PROBE_LIMITS);
  if (!guarded.ok)
    throw new ToolDefinitionError(
      'invalid_default',
      target.name,
      propertyName,
      'its initializer value is not JSON, so it cannot be the default the model sees: give `@Field({ default })` with a JSON value, or set it in invoke()',
    );
  const value = guarded.value as JsonValue;
  if (explicit !== undefined && JSON.stringify(explicit) !== JSON.stringify(value))
    throw new ToolDefinitionError(
      'invalid_default',
      target.name,
      propertyName,
      `its initializer gives ${JSON.stringify(value)} but its default is ${JSON.stringify(explicit)}; keep one`,
    );
  return explicit ?? value;
}

/** Classes already warned about, so each is named once per process. */
const warned = new WeakSet<Function>();

/**
 * Warns once per class (a `WuweWarning` with code `WUWE_UNDECORATED_PROPERTY`) about properties a
 * fresh instance has that are not arguments: they are not in the schema, so the model can never
 * set them. An instance `description` (a tool's description) is not reported. Properties declared
 * without an initializer are invisible at run time under `useDefineForClassFields: false`; the
 * warning covers what can be seen.
 */
export function warnUndecoratedProperties(
  target: Function,
  instance: Record<string, unknown>,
  fields: ReadonlyMap<string, unknown>,
): void {
  if (warned.has(target)) return;
  const undecorated = Object.keys(instance).filter(
    (name) => !fields.has(name) && name !== 'description' && typeof instance[name] !== 'function',
  );
  if (undecorated.length === 0) return;
  warned.add(target);
  process.emitWarning(
    `${target.name}: ${undecorated.map((name) => `'${name}'`).join(', ')} ${undecorated.length === 1 ? 'is' : 'are'} not a tool argument (no @Field), so the model cannot set ${undecorated.length === 1 ? 'it' : 'them'}; decorate ${undecorated.length === 1 ? 'it' : 'them'} with @Field, or keep state out of argument classes`,
    { type: 'WuweWarning', code: 'WUWE_UNDECORATED_PROPERTY' },
  );
}
