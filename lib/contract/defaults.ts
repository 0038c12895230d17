import { DEFAULT_RETRYABLE_CATEGORIES } from '../outcome/error-codes';
import { ToolCapabilities, ToolDescriptor, ToolResourceVersionPolicy, ToolRetryPolicy } from './tool-descriptor';

/** Default retry policy: one attempt, so nothing is repeated unless a contract asks. */
export const DEFAULT_RETRY_POLICY: ToolRetryPolicy = Object.freeze({
  maxAttempts: 1,
  initialDelayMs: 200,
  backoffCoefficient: 2,
  maxDelayMs: 10_000,
  jitter: 0.2,
  retryableCategories: DEFAULT_RETRYABLE_CATEGORIES,
});

/** Default resource-version policy: not required; `/expectedVersion` in, `/version` out. */
export const DEFAULT_RESOURCE_VERSION_POLICY: ToolResourceVersionPolicy = Object.freeze({
  requireExpectedVersion: false,
  argumentPointer: '/expectedVersion',
  outcomePointer: '/version',
});

/** No capabilities. */
export const NO_CAPABILITIES: ToolCapabilities = Object.freeze({
  invocationContext: false,
  idempotencyKey: false,
  heartbeat: false,
  compensation: false,
});

/** Every default of a descriptor except name, description and schemas. */
export const DEFAULT_TOOL_CONTRACT: Omit<ToolDescriptor, 'name' | 'description' | 'inputSchema'> = Object.freeze({
  version: '1',
  sideEffect: 'none',
  idempotency: 'non_idempotent',
  approval: 'when_destructive',
  timeoutMs: 30_000,
  outputValidation: 'strict',
  retry: DEFAULT_RETRY_POLICY,
  resourceVersion: DEFAULT_RESOURCE_VERSION_POLICY,
  compensation: Object.freeze({ enabled: false }),
  capabilities: NO_CAPABILITIES,
  metadata: Object.freeze({}),
});
