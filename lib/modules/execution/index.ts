export * from './execution-module-error';
export * from './job-types';
export * from './job';
export * from './job-manager';
export * from './execution-tools';
export * from './job-snapshot-schema';
export * from './resolve-execution-options';
export * from './execution-tool-provider';
