export * from './tool-invocation';
export * from './tool-provider';
export * from './tool-provider-error';
export * from './reflected-tool-provider';
export * from './tool-registry';
export * from './composite-tool-provider';
