import { ClassPlan } from '../reflect/class-plan';
import { FieldKind } from '../reflect/field-kind';

/** Creates an instance of a class; the default calls its constructor without arguments. */
export type InstanceFactory = (target: Function) => object;

/** Default {@link InstanceFactory}. */
export const constructInstance: InstanceFactory = (target) => new (target as new () => object)();

/**
 * Fills an instance (and nested instances) from validated arguments, following the class plans.
 * Only declared fields are assigned; keys come from the plan, never from the input.
 */
export function fillInstance(instance: object, value: Record<string, unknown>, plans: ReadonlyMap<Function, ClassPlan>, target: Function): object {
  const plan = plans.get(target);
  if (plan === undefined) return instance;
  const record = instance as Record<string, unknown>;
  for (const field of plan.fields) {
    if (!Object.prototype.hasOwnProperty.call(value, field.propertyName)) continue;
    record[field.propertyName] = convert(value[field.propertyName], field.kind, plans);
  }
  return instance;
}

function convert(value: unknown, kind: FieldKind, plans: ReadonlyMap<Function, ClassPlan>): unknown {
  if (value === null || value === undefined) return value;
  if (kind.kind === 'object') return fillInstance(constructInstance(kind.target), value as Record<string, unknown>, plans, kind.target);
  if (kind.kind === 'array' && (kind.items.kind === 'object' || kind.items.kind === 'array'))
    return (value as unknown[]).map((item) => convert(item, kind.items, plans));
  return value;
}
