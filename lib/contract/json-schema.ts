/** A JSON Schema document (draft 2020-12 subset used by tool contracts). */
export type JsonSchema = { readonly [keyword: string]: unknown };

/** A JSON Schema object under construction: a schema being built or rewritten keyword by keyword. */
export type SchemaNode = { [keyword: string]: unknown };
