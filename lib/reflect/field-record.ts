import { FieldOptions } from './field-options';

/** What `@Field` recorded for one property. */
export interface FieldRecord {
  readonly propertyName: string;
  /** The `design:type` the compiler emitted (undefined when it emitted none). */
  readonly designType: unknown;
  /**
   * Whether the compiler emitted `design:type` at all (tsc, ts-node and ts-jest with `emitDecoratorMetadata` and legacy
   * decorators do).
   */
  readonly reflected: boolean;
  readonly options: FieldOptions;
  /**
   * Why the field cannot be an argument, found at decoration where the class name is not known yet; reported by
   * `makeLlmTool`.
   */
  readonly problem?: string;
}
