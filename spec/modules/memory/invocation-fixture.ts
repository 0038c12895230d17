import { ToolDescriptor } from '../../../lib/contract/tool-descriptor';
import { JsonObject } from '../../../lib/outcome/json-value';
import { HeartbeatProgress, ToolInvocation } from '../../../lib/providers/tool-invocation';
import { ToolProvider } from '../../../lib/providers/tool-provider';

/** A rich invocation of one of a provider's tools, recording heartbeats, for tests. */
export interface TestInvocation extends ToolInvocation {
  readonly heartbeats: (HeartbeatProgress | undefined)[];
  readonly controller: AbortController;
}

/** Builds an invocation for `toolName` of `provider` with the given arguments. */
export function invocationFor(
  provider: ToolProvider,
  toolName: string,
  args: JsonObject,
  extra: { idempotencyKey?: string; callId?: string; controller?: AbortController } = {},
): TestInvocation {
  const descriptor = provider.listTools().find((tool) => tool.name === toolName) as ToolDescriptor;
  const controller = extra.controller ?? new AbortController();
  const heartbeats: (HeartbeatProgress | undefined)[] = [];
  return {
    toolName,
    descriptor,
    arguments: args,
    callId: extra.callId ?? 'call-1',
    idempotencyKey: extra.idempotencyKey,
    attempt: 1,
    runId: 'run-1',
    deadline: { timeoutMs: descriptor?.timeoutMs ?? 30_000, deadlineAtMs: Date.now() + 30_000 },
    signal: controller.signal,
    reportHeartbeat: (progress) => heartbeats.push(progress),
    heartbeats,
    controller,
  };
}
