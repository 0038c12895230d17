import Ajv, { ErrorObject, FormatDefinition, ValidateFunction } from 'ajv';
import type { FormatCompare } from 'ajv/dist/types';
import addFormats from 'ajv-formats';
import { JsonSchema } from '../contract/json-schema';
import { hasErrorMarker } from '../errors/error-marker';
import { messageOf } from '../errors/message-of';
import { WuweError } from '../errors/wuwe-error';
import { countValuesAtMost } from './count-values';
import { linearRegExp, UnsupportedPatternError } from './linear-reg-exp';
import { capIssues, escapePointerToken, MAX_REPORTED_ISSUES, ValidationIssue } from './validation-issue';

const SCHEMA_COMPILE_ERROR_MARKER = Symbol.for('wuwe.error.SchemaCompileError');

/**
 * A schema that ajv refused to compile: `invalid_schema` for an unknown keyword under `strict` or a
 * broken `$ref`, `invalid_pattern` for a `pattern` or `patternProperties` key the linear-time
 * engine cannot match (see {@link UnsupportedPatternError}).
 */
export class SchemaCompileError extends WuweError<'invalid_schema' | 'invalid_pattern'> {
  private readonly [SCHEMA_COMPILE_ERROR_MARKER] = true;

  /** True when `value` is a SchemaCompileError, from this or another copy of the package. */
  static override isInstance(value: unknown): value is SchemaCompileError {
    return hasErrorMarker(value, SCHEMA_COMPILE_ERROR_MARKER);
  }

  constructor(
    readonly reason: string,
    options?: { cause?: unknown; code?: 'invalid_schema' | 'invalid_pattern' },
  ) {
    super(options?.code ?? 'invalid_schema', `JSON Schema does not compile: ${reason}`, options);
  }
}

/**
 * Checks a value against a compiled schema and returns the issues (empty when valid; see {@link compileInputValidator}
 * for how many).
 */
export type CompiledSchemaValidator = (value: unknown) => readonly ValidationIssue[];

/**
 * Values (see `ArgumentLimits.maxElements`) up to which an invalid value is validated a second time
 * to list its issues; a larger one reports its first issue only, so collecting errors never costs
 * more than this bounded second pass.
 */
export const ISSUE_LISTING_MAX_VALUES = 2_000;

/**
 * The longest string a `format` check of ajv-formats looks at (64 KiB); a longer one fails the
 * format. Those checks run native regular expressions (`uri` took 650 ms on 8 MiB before
 * overflowing its stack); `byte`, `binary` and `password` are not capped.
 */
export const MAX_FORMAT_STRING_LENGTH = 65_536;

const UNCAPPED_FORMATS: ReadonlySet<string> = new Set(['byte', 'binary', 'password']);

function createAjv(useDefaults: boolean, allErrors: boolean): Ajv {
  const ajv = new Ajv({
    strict: true,
    allErrors,
    useDefaults,
    coerceTypes: false,
    allowUnionTypes: true,
    code: { regExp: linearRegExp },
  });
  addFormats(ajv);
  capFormatLengths(ajv);
  return ajv;
}

/**
 * Wraps every string format of ajv-formats so that a string over {@link MAX_FORMAT_STRING_LENGTH} fails without running
 * it.
 */
function capFormatLengths(ajv: Ajv): void {
  for (const [name, format] of Object.entries(ajv.formats)) {
    if (UNCAPPED_FORMATS.has(name)) continue;
    const check = stringFormatCheck(format);
    if (check === undefined) continue;
    const compare =
      typeof format === 'object' && format !== null && 'compare' in format
        ? (format.compare as FormatCompare<string> | undefined)
        : undefined;
    const capped: FormatDefinition<string> = {
      type: 'string',
      validate: (value: string) => value.length <= MAX_FORMAT_STRING_LENGTH && check(value),
    };
    ajv.addFormat(name, compare === undefined ? capped : { ...capped, compare });
  }
}

/** The synchronous string check of a format definition, or undefined for number, async and always-true formats. */
function stringFormatCheck(format: unknown): ((value: string) => boolean) | undefined {
  if (format instanceof RegExp) return (value) => format.test(value);
  if (typeof format === 'function') return format as (value: string) => boolean;
  if (typeof format !== 'object' || format === null) return undefined;
  const definition = format as { type?: string; async?: boolean; validate?: unknown };
  if ((definition.type !== undefined && definition.type !== 'string') || definition.async === true) return undefined;
  return stringFormatCheck(definition.validate);
}

interface AjvPair {
  /** Stops at the first error: every value is validated by it. */
  readonly first: Ajv;
  /** Collects every error: only for invalid values of at most `ISSUE_LISTING_MAX_VALUES` values. */
  readonly all: Ajv;
}

const inputAjv: AjvPair = { first: createAjv(true, false), all: createAjv(true, true) };
const outputAjv: AjvPair = { first: createAjv(false, false), all: createAjv(false, true) };
const inputCache = new WeakMap<object, CompiledSchemaValidator>();
const outputCache = new WeakMap<object, CompiledSchemaValidator>();

/**
 * Compiles an input schema once (cached per schema object) with ajv in `strict` mode: unknown
 * keywords fail closed. Defaults in the schema are applied to the validated value in place.
 * Integers are additionally held to the safe-integer range. `pattern` and `patternProperties` are
 * matched in linear time (`linearRegExp`).
 *
 * Validation stops at the first error, so its cost is bounded by the size of the value, never by
 * how many errors it holds. An invalid value of at most `ISSUE_LISTING_MAX_VALUES` values is
 * validated again to list its issues: the first `MAX_REPORTED_ISSUES` (20), then one `moreIssues`
 * issue counting the rest. A larger invalid value reports its first issue and a `moreIssues` issue
 * saying validation stopped there. Throws {@link SchemaCompileError}.
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
  const validate = compileChecked(outputAjv.all, hardened);
  try {
    return validate(value) ? NO_ISSUES : listIssues(validate);
  } finally {
    outputAjv.all.removeSchema(hardened);
  }
}

function compileCached(
  pair: AjvPair,
  cache: WeakMap<object, CompiledSchemaValidator>,
  schema: JsonSchema,
): CompiledSchemaValidator {
  const cached = cache.get(schema);
  if (cached !== undefined) return cached;
  const hardened = hardenIntegers(schema) as object;
  const first = compileChecked(pair.first, hardened);
  let all: ValidateFunction | undefined;
  const validate = (value: unknown): readonly ValidationIssue[] => {
    if (first(value)) return NO_ISSUES;
    if (!countValuesAtMost(value, ISSUE_LISTING_MAX_VALUES))
      return [...(first.errors ?? []).slice(0, 1).map(toIssue), STOPPED_AT_FIRST];
    all ??= compileChecked(pair.all, hardened);
    return all(value) ? NO_ISSUES : listIssues(all);
  };
  const compiled: CompiledSchemaValidator = (value) => {
    try {
      return validate(value);
    } catch (error) {
      // A format check of ajv-formats runs a native RegExp, which can overflow its stack on a
      // string of megabytes: the value is refused, never accepted, and the call never throws.
      return [{ pointer: '', message: `arguments could not be validated: ${messageOf(error)}`, keyword: 'validation' }];
    }
  };
  cache.set(schema, compiled);
  return compiled;
}

function compileChecked(ajv: Ajv, schema: object): ValidateFunction {
  try {
    return ajv.compile(schema);
  } catch (error) {
    if (UnsupportedPatternError.isInstance(error))
      throw new SchemaCompileError(error.message, { cause: error, code: 'invalid_pattern' });
    throw new SchemaCompileError(messageOf(error), { cause: error });
  }
}

function listIssues(validate: ValidateFunction): readonly ValidationIssue[] {
  const errors = validate.errors ?? [];
  return capIssues(errors.slice(0, MAX_REPORTED_ISSUES).map(toIssue), errors.length);
}

const NO_ISSUES: readonly ValidationIssue[] = Object.freeze([]);
const STOPPED_AT_FIRST: ValidationIssue = Object.freeze({
  pointer: '',
  message: `validation stopped at the first issue (the arguments hold more than ${ISSUE_LISTING_MAX_VALUES} values); there may be more`,
  keyword: 'moreIssues',
});

function toIssue(error: ErrorObject): ValidationIssue {
  const params = error.params as Record<string, unknown>;
  let pointer = error.instancePath;
  if (error.keyword === 'required' && typeof params.missingProperty === 'string')
    pointer += `/${escapePointerToken(params.missingProperty)}`;
  if (error.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string')
    pointer += `/${escapePointerToken(params.additionalProperty)}`;
  let message = error.message ?? 'is invalid';
  if (error.keyword === 'enum' && Array.isArray(params.allowedValues))
    message += `: ${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
  if (error.keyword === 'additionalProperties') message = `unknown property '${String(params.additionalProperty)}'`;
  return { pointer, message, keyword: error.keyword };
}

/** Returns a copy of the schema where every `type: "integer"` is bounded to the safe-integer range. */
function hardenIntegers(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(hardenIntegers);
  if (typeof schema !== 'object' || schema === null) return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema))
    copy[key] = key === 'enum' || key === 'const' || key === 'default' ? value : hardenIntegers(value);
  const type = copy.type;
  if (type === 'integer' || (Array.isArray(type) && type.includes('integer') && !type.includes('number'))) {
    copy.minimum =
      typeof copy.minimum === 'number' ? Math.max(copy.minimum, Number.MIN_SAFE_INTEGER) : Number.MIN_SAFE_INTEGER;
    copy.maximum =
      typeof copy.maximum === 'number' ? Math.min(copy.maximum, Number.MAX_SAFE_INTEGER) : Number.MAX_SAFE_INTEGER;
  }
  return copy;
}
