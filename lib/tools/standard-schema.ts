/**
 * The Standard Schema interface (https://standardschema.dev), version 1: what zod, valibot and
 * arktype schemas carry under `~standard`. Declared here so wuwe depends on none of them.
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': StandardSchemaProps<Input, Output>;
}

/** The `~standard` property of a {@link StandardSchemaV1}. */
export interface StandardSchemaProps<Input = unknown, Output = Input> {
  readonly version: 1;
  readonly vendor: string;
  /** Checks a value: its output, or the issues found. */
  readonly validate: (value: unknown) => StandardSchemaResult<Output> | Promise<StandardSchemaResult<Output>>;
  readonly types?: { readonly input: Input; readonly output: Output } | undefined;
}

/** What a Standard Schema's `validate` returns. */
export type StandardSchemaResult<Output> =
  { readonly value: Output; readonly issues?: undefined } | { readonly issues: readonly StandardSchemaIssue[] };

/** One problem a Standard Schema's `validate` reports. */
export interface StandardSchemaIssue {
  readonly message: string;
  readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[] | undefined;
}

/** The type a Standard Schema produces (what `invoke` of a defined tool receives). */
export type InferSchemaOutput<S extends StandardSchemaV1> = NonNullable<S['~standard']['types']>['output'];

/**
 * The Standard JSON Schema interface, version 1: a Standard Schema that also exports JSON Schema
 * (`~standard.jsonSchema.input({ target })`); zod 4 schemas have it, valibot's through
 * `toStandardJsonSchema` of `@valibot/to-json-schema`.
 */
export interface StandardJsonSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': StandardSchemaProps<Input, Output> & {
    readonly jsonSchema: {
      /** The JSON Schema of the schema's input, for `target` (e.g. `draft-07`). */
      readonly input: (options: {
        readonly target: string;
        readonly libraryOptions?: Record<string, unknown>;
      }) => Record<string, unknown>;
    };
  };
}

/** True when the value carries a Standard Schema `~standard` property with a `validate` function. */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  const props = (value as { '~standard'?: { validate?: unknown } } | null | undefined)?.['~standard'];
  return typeof props === 'object' && props !== null && typeof props.validate === 'function';
}

/** True when the Standard Schema also exports JSON Schema (Standard JSON Schema). */
export function hasJsonSchemaExport(value: StandardSchemaV1): value is StandardSchemaV1 & StandardJsonSchemaV1 {
  const jsonSchema = (value['~standard'] as { jsonSchema?: { input?: unknown } }).jsonSchema;
  return typeof jsonSchema === 'object' && jsonSchema !== null && typeof jsonSchema.input === 'function';
}
