export { PROCESS_ERROR_OUTCOMES, ProcessError } from './process-error';
export type { ProcessErrorCode, ProcessErrorOutcome } from './process-error';
export type { ProcessAuditEntry, ProcessAuditSink } from './process-audit';
export { DEFAULT_PROCESS_LIMITS, SHELL_PATH, compileProcessPolicy } from './process-policy';
export type { ProcessPolicyOptions, ResolvedProcessPolicy } from './process-policy';
export { ProcessToolkit } from './process-toolkit';
export type { ProcessToolkitOptions } from './process-toolkit';
export {
  DENIED_ENVIRONMENT_NAMES,
  DENIED_ENVIRONMENT_PREFIXES,
  HOST_ONLY_ENVIRONMENT_NAMES,
  isDeniedEnvironmentName,
  isHostOnlyEnvironmentName,
  PERMITTED_ENVIRONMENT_NAMES,
} from './environment-denial';
export { EXECUTABLE_NAME_PATTERN } from './resolve-executable';
export { BUILT_IN_ARGUMENT_PROFILES } from './argument-profiles';
export type { ArgumentRule } from './argument-rules';
