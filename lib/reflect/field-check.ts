import { FieldOptions } from './field-options';

type IsAny<V> = 0 extends 1 & V ? true : false;

/**
 * True when `V` is a union of string or number literals (`'fast' | 'slow'`, `1 | 2`), not `string` or `number` itself.
 */
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
type ScalarTypeOption =
  | 'string'
  | 'number'
  | 'integer'
  | StringConstructor
  | NumberConstructor
  | readonly [StringConstructor | NumberConstructor];

/**
 * Options that state the allowed values: an `enum`, or a `type` other than a plain scalar (an enum object, a thunk).
 */
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
 * True when the program compiles with `strictNullChecks`. Without it `undefined` is assignable to
 * every type, so whether a property's type admits `undefined` cannot be told from the type.
 */
type StrictNullChecks = undefined extends string ? false : true;

/** True when a value of `V` may be `undefined`, as far as the compiler can tell (never without `strictNullChecks`). */
type MayBeUndefined<V> = StrictNullChecks extends true ? (undefined extends V ? true : false) : false;

type OptionalWithoutOption =
  '@Field: this property may be undefined (`?`): say `@Field({ optional: true })` or give a `default`';
type LiteralUnionWithoutEnum =
  '@Field: a literal union would be reflected as a plain string or number: list its values with `@Field({ enum: [...] })`';

/**
 * `true` when a property of type `V` (`undefined` left out) that is a literal union, or an array of one, lists its
 * values.
 */
type LiteralUnionCheck<V, O> =
  IsLiteralUnion<ItemOf<Exclude<V, undefined>>> extends true
    ? StatesValues<O> extends true
      ? true
      : LiteralUnionWithoutEnum
    : true;

/**
 * `true` when `@Field(options)` reflects a property of type `V` faithfully, else the reason as a
 * string literal (shown by the compiler). What TypeScript's `design:type` cannot see is checked
 * here, at compile time: a `?` optional must say `optional: true` (or have a `default`), and a
 * literal union (or an array of one, optional or not) must list its values with `enum`.
 *
 * `Optional` is whether the property is declared with `?` (the legacy decorator form sees its key;
 * the standard form cannot tell, and passes `false`). Where the compiler cannot tell (a property
 * declared `x: string | undefined` without `strictNullChecks`, which erases the `undefined`), the
 * check stays silent rather than refuse valid code.
 */
export type FieldCheck<V, O, Optional extends boolean = false> =
  IsAny<V> extends true
    ? true
    : unknown extends V
      ? true
      : true extends Optional | MayBeUndefined<V>
        ? O extends { readonly optional: true } | { readonly default: unknown }
          ? LiteralUnionCheck<V, O>
          : OptionalWithoutOption
        : LiteralUnionCheck<V, O>;

/**
 * True when `K` is declared optional (`?`) in `T`, whatever `strictNullChecks` and `exactOptionalPropertyTypes` say.
 */
type IsOptionalKey<T, K extends keyof T> = Record<never, never> extends Pick<T, K> ? true : false;

/** The compile-time verdict on a field: `unknown` when the options fit its type, else an object naming the problem. */
export type Checked<V, O, Optional extends boolean = false> =
  FieldCheck<V, O, Optional> extends true ? unknown : { readonly fieldError: FieldCheck<V, O, Optional> };

/**
 * The decorator `@Field(options)` returns. It accepts both calling conventions: legacy
 * (`experimentalDecorators`: prototype and property key) and TC39 standard (`undefined` and a field
 * context). In both, the property's declared type is checked against the options ({@link FieldCheck}).
 */
export interface FieldDecorator<O extends FieldOptions> {
  <T extends object, K extends string | symbol>(
    target: T,
    propertyKey: K & (K extends keyof T ? Checked<T[K], O, IsOptionalKey<T, K>> : unknown),
  ): void;
  <This, V>(value: undefined, context: ClassFieldDecoratorContext<This, V> & Checked<V, O>): void;
}
