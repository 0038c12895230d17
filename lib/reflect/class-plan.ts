import { FieldKind } from './field-kind';

/** How one field of a class is filled from validated arguments. */
export interface FieldPlan {
  readonly propertyName: string;
  readonly kind: FieldKind;
}

/** The fields of a class, in declaration order, as the instance builder needs them. */
export interface ClassPlan {
  readonly target: Function;
  readonly fields: readonly FieldPlan[];
}
