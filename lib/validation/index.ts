export { capIssues, escapePointerToken, MAX_REPORTED_ISSUES, moreIssues, resolveJsonPointer } from './validation-issue';
export type { ValidationIssue } from './validation-issue';
export { DEFAULT_ARGUMENT_LIMITS, maxElementsOf } from './argument-limits';
export type { ArgumentLimits } from './argument-limits';
export { guardJsonValue } from './guard-json-value';
export type { GuardJsonValueOptions, GuardResult } from './guard-json-value';
export {
  MAX_FORMAT_STRING_LENGTH,
  SchemaCompileError,
  compileInputValidator,
  compileOutputValidator,
  validateOnce,
} from './schema-validator';
export type { CompiledSchemaValidator } from './schema-validator';
export { decodeToolArguments } from './decode-arguments';
export type { ArgumentRejectionCode, DecodedArguments } from './decode-arguments';
export { linearRegExp, UnsupportedPatternError } from './linear-reg-exp';
export type { LinearRegExp } from './linear-reg-exp';
