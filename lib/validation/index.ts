/**
 * `wuwe/validation`: the JSON Schema validators the runner compiles for tool arguments and outputs, the
 * argument size limits, the JSON value guard, and the issues they report.
 * @packageDocumentation
 */
export {
  compileInputValidator,
  compileOutputValidator,
  MAX_FORMAT_STRING_LENGTH,
  SchemaCompileError,
} from './schema-validator';
export type { CompiledSchemaValidator } from './schema-validator';
export { DEFAULT_ARGUMENT_LIMITS } from './argument-limits';
export type { ArgumentLimits } from './argument-limits';
export { guardJsonValue } from './guard-json-value';
export type { GuardJsonValueOptions, GuardResult } from './guard-json-value';
export { MAX_REPORTED_ISSUES } from './validation-issue';
export type { ValidationIssue } from './validation-issue';
export { UnsupportedPatternError } from './linear-reg-exp';
export type { ArgumentRejectionCode } from './decode-arguments';
