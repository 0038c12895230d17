export * from './tool-argument-error';
export * from './make-llm-tool';
export * from './parse-tool-arguments';
export * from './tool-failure-error';
export * from './to-tool-outcome';
export * from './invoke-reflected-tool';
export * from './tool-descriptor-of';
export { constructInstance } from './build-instance';
export type { InstanceFactory } from './build-instance';
