import { ToolDescriptor } from '../../contract/tool-descriptor';
import { JsonObject } from '../../outcome/json-value';
import { ToolInvocation } from '../../providers/tool-invocation';
import { ToolProvider } from '../../providers/tool-provider';

/**
 * The invocation a module provider builds for a call in the legacy form `invoke(name, args, signal)`:
 * no idempotency key, no context, heartbeats dropped, the contract's timeout as an informative
 * deadline (the caller, not the provider, enforces it). It grants none of the advanced capabilities.
 */
export function directInvocation(
  provider: ToolProvider,
  toolName: string,
  args: JsonObject,
  signal?: AbortSignal,
): ToolInvocation {
  const descriptor = provider.listTools().find((candidate) => candidate.name === toolName) as ToolDescriptor;
  const timeoutMs = descriptor?.timeoutMs ?? 30_000;
  return {
    toolName,
    descriptor,
    arguments: args,
    callId: 'direct',
    attempt: 1,
    runId: 'direct',
    deadline: { timeoutMs, deadlineAtMs: Date.now() + timeoutMs },
    signal: signal ?? new AbortController().signal,
    reportHeartbeat: () => undefined,
  };
}
