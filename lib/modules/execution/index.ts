/**
 * `wuwe/execution`: long-running jobs as tools: a job manager, its jobs and their snapshots, and the tool
 * provider that starts, polls and cancels them.
 * @packageDocumentation
 */
export { ExecutionToolProvider } from './execution-tool-provider';
export type { ExecutionToolProviderOptions } from './execution-tool-provider';
export { ExecutionModuleError } from './execution-module-error';
export type { ExecutionModuleErrorCode } from './execution-module-error';
export { JobManager } from './job-manager';
export type { JobManagerOptions, JobStartRefusal, JobStartResult } from './job-manager';
export { Job } from './job';
export { EXECUTION_TOOL_NAMES } from './execution-tools';
export type { ExecutionToolSettings } from './execution-tools';
export type { JobContext, JobDefinition, JobHandler, JobSnapshot, JobStatus } from './job-types';
