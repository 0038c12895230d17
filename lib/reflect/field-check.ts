import { FieldOptions } from './field-options';

type IsAny<V> = 0 extends 1 & V ? true : false;

/** True when `V` is a union of string or number literals (`'fast' | 'slow'`, `1 | 2`), not `string` or `number` itself. */
type IsLiteralUnion<V> = [V] extends [never]
  ? false
  : [V] extends [string]
    ? string extends V
      ? false
      : true
    : [V] extends [number]
      ? number extends V
        ? false
        : true
      : false;

/** An explicit `type` that names only a plain scalar (which would widen a literal union). */
type ScalarTypeOption = 'string' | 'number' | 'integer' | StringConstructor | NumberConstructor | readonly [StringConstructor | NumberConstructor];

/** Options that state the allowed values: an `enum`, or a `type` other than a plain scalar (an enum object, a thunk). */
type StatesValues<O> = O extends { readonly enum: object }
  ? true
  : O extends { readonly type: infer T }
    ? T extends ScalarTypeOption
      ? false
      : T extends () => StringConstructor | NumberConstructor | [StringConstructor | NumberConstructor]
        ? false
        : true
    : false;

type ItemOf<V> = V extends readonly (infer I)[] ? I : V;

/**
 * `true` when `@Field(options)` reflects a property of type `V` faithfully, else the reason as a
 * string literal (shown by the compiler). What TypeScript's `design:type` cannot see is checked
 * here, at compile time: a `?` optional must say `optional: true` (or have a `default`), and a
 * literal union (or an array of one) must list its values with `enum`.
 */
export type FieldCheck<V, O> =
  IsAny<V> extends true
    ? true
    : unknown extends V
      ? true
      : undefined extends V
        ? O extends { readonly optional: true } | { readonly default: unknown }
          ? true
          : '@Field: this property may be undefined (`?`): say `@Field({ optional: true })` or give a `default`'
        : IsLiteralUnion<ItemOf<V>> extends true
          ? StatesValues<O> extends true
            ? true
            : '@Field: a literal union would be reflected as a plain string or number: list its values with `@Field({ enum: [...] })`'
          : true;

/** The compile-time verdict on a field: `unknown` when the options fit its type, else an object naming the problem. */
export type Checked<V, O> = FieldCheck<V, O> extends true ? unknown : { readonly fieldError: FieldCheck<V, O> };

/**
 * The decorator `@Field(options)` returns. It accepts both calling conventions: legacy
 * (`experimentalDecorators`: prototype and property key) and TC39 standard (`undefined` and a field
 * context). In both, the property's declared type is checked against the options ({@link FieldCheck}).
 */
export interface FieldDecorator<O extends FieldOptions> {
  <T extends object, K extends string | symbol>(target: T, propertyKey: K & (K extends keyof T ? Checked<T[K], O> : unknown)): void;
  <This, V>(value: undefined, context: ClassFieldDecoratorContext<This, V> & Checked<V, O>): void;
}
