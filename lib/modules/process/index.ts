export * from './process-error';
export * from './process-audit';
export * from './process-policy';
export * from './process-toolkit';
export { DENIED_ENVIRONMENT_NAMES, DENIED_ENVIRONMENT_PREFIXES, isDeniedEnvironmentName } from './environment-rules';
export { EXECUTABLE_NAME_PATTERN } from './resolve-executable';
