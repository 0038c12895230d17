import { ClassPlan } from '../reflect/class-plan';
import { FieldKind } from '../reflect/field-kind';

/** Creates an instance of a class; the default calls its constructor without arguments. */
export type InstanceFactory = (target: Function) => object;

/** Default {@link InstanceFactory}. */
export const constructInstance: InstanceFactory = (target) => new (target as new () => object)();

/** Fills an instance (and nested instances) from validated arguments. */
export type InstanceFiller = (instance: object, value: Record<string, unknown>) => object;

type Converter = ((value: unknown) => unknown) | undefined;

/**
 * Compiles, once per tool class, the function that fills an instance from validated arguments,
 * following the class plans. Only declared fields are assigned; keys come from the plan, never
 * from the input. Nested classes become instances, arrays of them arrays of instances.
 */
export function compileInstanceFiller(target: Function, plans: ReadonlyMap<Function, ClassPlan>): InstanceFiller {
  return fillerOf(target, plans, new Map());
}

function fillerOf(
  target: Function,
  plans: ReadonlyMap<Function, ClassPlan>,
  fillers: Map<Function, InstanceFiller>,
): InstanceFiller {
  const known = fillers.get(target);
  if (known !== undefined) return known;
  const names: string[] = [];
  const converters: Converter[] = [];
  const fill: InstanceFiller = (instance, value) => {
    const record = instance as Record<string, unknown>;
    for (let index = 0; index < names.length; index++) {
      const name = names[index];
      if (!Object.prototype.hasOwnProperty.call(value, name)) continue;
      const item = value[name];
      const convert = converters[index];
      record[name] = convert === undefined || item === null || item === undefined ? item : convert(item);
    }
    return instance;
  };
  // Registered before its fields are compiled, so a class that nests itself (through `ref`) finds it.
  fillers.set(target, fill);
  for (const field of plans.get(target)?.fields ?? []) {
    names.push(field.propertyName);
    converters.push(converterOf(field.kind, plans, fillers));
  }
  return fill;
}

function converterOf(
  kind: FieldKind,
  plans: ReadonlyMap<Function, ClassPlan>,
  fillers: Map<Function, InstanceFiller>,
): Converter {
  if (kind.kind === 'object') {
    const fill = fillerOf(kind.target, plans, fillers);
    const nested = kind.target;
    return (value) => fill(constructInstance(nested), value as Record<string, unknown>);
  }
  if (kind.kind === 'array') {
    const item = converterOf(kind.items, plans, fillers);
    if (item === undefined) return undefined;
    return (value) =>
      (value as unknown[]).map((entry) => (entry === null || entry === undefined ? entry : item(entry)));
  }
  return undefined;
}
