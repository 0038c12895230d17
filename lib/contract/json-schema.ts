/** A JSON Schema document (draft 2020-12 subset used by tool contracts). */
export type JsonSchema = { readonly [keyword: string]: unknown };
