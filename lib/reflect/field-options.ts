import { JsonValue } from '../outcome/json-value';

/** A class constructor (tool classes and nested argument classes). */
export type ClassType<T = unknown> = abstract new (...args: any[]) => T;

/** A scalar named by string when reflection cannot tell (e.g. integers). */
export type ScalarTypeName = 'string' | 'number' | 'integer' | 'boolean';

/** Anything a type thunk may return for one item: a scalar constructor, a class, or an enum object. */
export type FieldItemType =
  StringConstructor | NumberConstructor | BooleanConstructor | ClassType | Record<string, string | number>;

/**
 * An explicit field type: a scalar name, a type (`String`, `Number`, `Boolean`, a class, an enum
 * object), a one-item array of one for a list (`[String]`, `[Address]`), or a thunk returning
 * either, in type-graphql's form: `() => Address`, `() => [Address]` (a thunk is an arrow function;
 * use one for a class declared further down or for a class that nests itself).
 */
export type FieldTypeOption =
  ScalarTypeName | FieldItemType | readonly FieldItemType[] | (() => FieldItemType | readonly FieldItemType[]);

/** Options of `@Field`. Every field is optional. */
export interface FieldOptions {
  /** Shown to the model. */
  readonly description?: string;
  /** Applied when the model leaves the field out; the field is then not required. */
  readonly default?: JsonValue;
  /** A TS enum object or a literal array of allowed values. */
  readonly enum?: Record<string, string | number> | readonly (string | number)[];
  /** Explicit type when `design:type` does not suffice (arrays, nested classes, integers). */
  readonly type?: FieldTypeOption;
  /**
   * Whether the field is a list, for types given by `enum` or class-transformer's `@Type(() => X)`.
   * @default the compiler's `design:type` (`Array` or not); required where no `design:type` exists.
   */
  readonly array?: boolean;
  /** The model may leave it out. @default false */
  readonly optional?: boolean;
  /** Emit the nested class as a local `$defs` entry with `$ref` (needed for recursive classes). @default false */
  readonly ref?: boolean;
  /** Extra JSON Schema keywords merged into the field schema (e.g. `{ minLength: 1 }`). */
  readonly schema?: Readonly<Record<string, JsonValue>>;
}

/** Out-of-band description and default for a field of a class you cannot change. */
export interface FieldTraits {
  readonly description?: string;
  readonly default?: JsonValue;
}

/** Options of `@Tool`. */
export interface ToolOptions {
  /** Tool name. @default the class name. Must match `^[a-zA-Z0-9_-]{1,64}$`. */
  readonly name?: string;
  /** Shown to the model. @default a static or instance `description` of the class */
  readonly description?: string;
}
