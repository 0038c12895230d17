/** A JSON primitive. */
export type JsonPrimitive = string | number | boolean | null;
/** Any value `JSON.stringify` renders without loss. */
export type JsonValue = JsonPrimitive | JsonValue[] | { [key: string]: JsonValue };
/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };
