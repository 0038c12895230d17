export * from './process-error';
export * from './process-audit';
export * from './process-policy';
export * from './process-toolkit';
export * from './environment-denial';
export { EXECUTABLE_NAME_PATTERN } from './resolve-executable';
export * from './argument-profiles';
export type { ArgumentRule } from './argument-rules';
