export type { HeartbeatProgress, ToolDeadline, ToolInvocation } from './tool-invocation';
export type { CompensationResult, ToolProvider, ToolProviderCapabilities } from './tool-provider';
export { ToolProviderError } from './tool-provider-error';
export type { ToolProviderErrorCode } from './tool-provider-error';
export { ReflectedToolProvider } from './reflected-tool-provider';
export type { ReflectedToolContext, ReflectedToolProviderOptions } from './reflected-tool-provider';
export { SharedToolInstanceError, ToolContainerError, ToolRegistry } from './tool-registry';
export type { DependencyContainer, ToolRegistryOptions } from './tool-registry';
export { CompositeToolProvider, assertInvocable, composeToolProviders } from './composite-tool-provider';
