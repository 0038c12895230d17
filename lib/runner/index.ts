export * from './runner-clock';
export * from './runner-events';
export * from './run-options';
export * from './run-result';
export * from './runner-error';
export * from './idempotency-key';
export * from './run-tool-attempt';
export type { RunState } from './run-state';
export * from './llm-agent-runner';
