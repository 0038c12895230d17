import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { JsonSchema } from '../contract/json-schema';
import { WuweError } from '../errors/wuwe-error';
import { escapePointerToken, ValidationIssue } from './validation-issue';
import { hasErrorMarker } from '../errors/error-marker';
import { messageOf } from '../errors/message-of';

const SCHEMA_COMPILE_ERROR_MARKER = Symbol.for('wuwe.error.SchemaCompileError');

/** A schema that ajv refused to compile (an unknown keyword under `strict`, a broken `$ref`). */
export class SchemaCompileError extends WuweError<'invalid_schema'> {
  private readonly [SCHEMA_COMPILE_ERROR_MARKER] = true;

  /** True when `value` is a SchemaCompileError, from this or another copy of the package. */
  static override isInstance(value: unknown): value is SchemaCompileError {
    return hasErrorMarker(value, SCHEMA_COMPILE_ERROR_MARKER);
  }

  constructor(readonly reason: string, options?: { cause?: unknown }) {
    super('invalid_schema', `JSON Schema does not compile: ${reason}`, options);
  }
}

/** Checks a value against a compiled schema and returns the issues (empty when valid). */
export type CompiledSchemaValidator = (value: unknown) => readonly ValidationIssue[];

function createAjv(useDefaults: boolean): Ajv {
  const ajv = new Ajv({ strict: true, allErrors: true, useDefaults, coerceTypes: false, allowUnionTypes: true });
  addFormats(ajv);
  return ajv;
}

const inputAjv = createAjv(true);
const outputAjv = createAjv(false);
const inputCache = new WeakMap<object, CompiledSchemaValidator>();
const outputCache = new WeakMap<object, CompiledSchemaValidator>();

/**
 * Compiles an input schema once (cached per schema object) with ajv in `strict` mode: unknown
 * keywords fail closed. Defaults in the schema are applied to the validated value in place.
 * Integers are additionally held to the safe-integer range. Reports at most 50 issues. Throws {@link SchemaCompileError}.
 */
export function compileInputValidator(schema: JsonSchema): CompiledSchemaValidator {
  return compileCached(inputAjv, inputCache, schema);
}

/** Like {@link compileInputValidator} but never mutates the value (no defaults): for tool outputs. */
export function compileOutputValidator(schema: JsonSchema): CompiledSchemaValidator {
  return compileCached(outputAjv, outputCache, schema);
}

/**
 * Validates one value against a schema compiled for this check only and then dropped from ajv
 * (for definition-time checks such as field defaults, so nothing accumulates). Never mutates the
 * value. Throws {@link SchemaCompileError}.
 */
export function validateOnce(schema: JsonSchema, value: unknown): readonly ValidationIssue[] {
  const hardened = hardenIntegers(schema) as object;
  let validate: ValidateFunction;
  try {
    validate = outputAjv.compile(hardened);
  } catch (error) {
    throw new SchemaCompileError(messageOf(error), { cause: error });
  }
  try {
    return validate(value) ? NO_ISSUES : (validate.errors ?? []).slice(0, MAX_ISSUES).map(toIssue);
  } finally {
    outputAjv.removeSchema(hardened);
  }
}

function compileCached(ajv: Ajv, cache: WeakMap<object, CompiledSchemaValidator>, schema: JsonSchema): CompiledSchemaValidator {
  const cached = cache.get(schema);
  if (cached !== undefined) return cached;
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(hardenIntegers(schema) as object);
  } catch (error) {
    throw new SchemaCompileError(messageOf(error), { cause: error });
  }
  const compiled: CompiledSchemaValidator = (value) => (validate(value) ? NO_ISSUES : (validate.errors ?? []).slice(0, MAX_ISSUES).map(toIssue));
  cache.set(schema, compiled);
  return compiled;
}

const NO_ISSUES: readonly ValidationIssue[] = Object.freeze([]);
/** At most this many issues are reported, so a huge bad value cannot make a huge error. */
const MAX_ISSUES = 50;

function toIssue(error: ErrorObject): ValidationIssue {
  const params = error.params as Record<string, unknown>;
  let pointer = error.instancePath;
  if (error.keyword === 'required' && typeof params.missingProperty === 'string') pointer += `/${escapePointerToken(params.missingProperty)}`;
  if (error.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string')
    pointer += `/${escapePointerToken(params.additionalProperty)}`;
  let message = error.message ?? 'is invalid';
  if (error.keyword === 'enum' && Array.isArray(params.allowedValues)) message += `: ${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
  if (error.keyword === 'additionalProperties') message = `unknown property '${String(params.additionalProperty)}'`;
  return { pointer, message, keyword: error.keyword };
}

/** Returns a copy of the schema where every `type: "integer"` is bounded to the safe-integer range. */
function hardenIntegers(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(hardenIntegers);
  if (typeof schema !== 'object' || schema === null) return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) copy[key] = key === 'enum' || key === 'const' || key === 'default' ? value : hardenIntegers(value);
  const type = copy.type;
  if (type === 'integer' || (Array.isArray(type) && type.includes('integer') && !type.includes('number'))) {
    copy.minimum = typeof copy.minimum === 'number' ? Math.max(copy.minimum, Number.MIN_SAFE_INTEGER) : Number.MIN_SAFE_INTEGER;
    copy.maximum = typeof copy.maximum === 'number' ? Math.min(copy.maximum, Number.MAX_SAFE_INTEGER) : Number.MAX_SAFE_INTEGER;
  }
  return copy;
}
