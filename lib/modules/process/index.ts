/**
 * `wuwe/process`: the sandboxed process toolkit: allowed executables and argument rules, the environment
 * denial lists, its policy and limits, and the audit trail.
 * @packageDocumentation
 */
export { ProcessToolkit } from './process-toolkit';
export type { ProcessToolkitOptions } from './process-toolkit';
export { ProcessError } from './process-error';
export type { ProcessErrorCode, ProcessErrorOutcome } from './process-error';
export { compileProcessPolicy, DEFAULT_PROCESS_LIMITS } from './process-policy';
export type { ProcessPolicyOptions, ResolvedProcessPolicy } from './process-policy';
export {
  DENIED_ENVIRONMENT_NAMES,
  DENIED_ENVIRONMENT_PREFIXES,
  isDeniedEnvironmentName,
  PERMITTED_ENVIRONMENT_NAMES,
} from './environment-denial';
export { BUILT_IN_ARGUMENT_PROFILES } from './argument-profiles';
export type { ProcessAuditEntry, ProcessAuditSink } from './process-audit';
export type { ArgumentRule } from './argument-rules';
