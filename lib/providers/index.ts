export * from './tool-invocation';
export * from './tool-provider';
