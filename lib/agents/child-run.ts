import { RunStore } from '../durable/run-store';
import { RunStoreError } from '../durable/run-store-error';
import { standardFailure, toolFailure, ToolOutcome } from '../outcome/tool-outcome';
import { ToolInvocation } from '../providers/tool-invocation';
import type { LlmAgentRunOptions } from '../runner/run-options';
import type { LlmAgentRunResult } from '../runner/run-result';
import type { RunInProgress } from '../runner/run-state';
import { emitTo } from '../runner/run-steps';
import type { AgentCallLink, ChildAgentEvent, LlmAgentEvent } from '../runner/runner-events';
import type { CompiledStructuredOutput } from '../runner/structured-output/structured-output';
import type { AgentRunner } from './agent-tool';
import { AgentToolOptions, NestedAgentEvent } from './agent-tool-options';
import { AGENT_NAME, childRunIdOf, linksTo, PARENT_CALL_ID, PARENT_RUN_ID } from './child-run-id';
import { childOutcome, completedChildOutcome, waitingChildOf } from './child-outcome';
import { markChildWaiting, parentRunOf } from './parent-run-link';

/**
 * One call of an agent tool: the child run, started or (in a durable parent, when the store has it) resumed,
 * and its answer as the call's outcome. @internal
 */
export async function runChild(
  runner: AgentRunner,
  options: AgentToolOptions,
  output: CompiledStructuredOutput | undefined,
  invocation: ToolInvocation,
  prompt: string,
): Promise<ToolOutcome> {
  const parent = parentRunOf(invocation);
  const store = parent?.recorder?.store;
  const runOptions = childRunOptions(options, parent, invocation);
  if (store === undefined || parent === undefined || invocation.idempotencyKey === undefined)
    return childOutcome(undefined, await runner.complete(prompt, { ...runOptions, store: undefined }));
  const childRunId = childRunIdOf(parent.runId, invocation.callId, invocation.idempotencyKey);
  const existing = await store.loadRun(childRunId);
  if (existing !== undefined && !linksTo(existing.metadata, parent.runId, invocation.callId))
    return conflict(childRunId);
  if (existing?.status === 'completed') return completedChildOutcome(existing, output);
  if (existing?.status === 'cancelled')
    return { ...standardFailure('cancelled', 'the child run was cancelled'), metadata: { childRunId } };
  if (existing === undefined) {
    const metadata = { [PARENT_RUN_ID]: parent.runId, [PARENT_CALL_ID]: invocation.callId, [AGENT_NAME]: options.name };
    if (!(await createChild(store, childRunId, metadata, prompt))) {
      const raced = await store.loadRun(childRunId);
      if (raced === undefined || !linksTo(raced.metadata, parent.runId, invocation.callId)) return conflict(childRunId);
    }
  }
  const result: LlmAgentRunResult = await runner.resume(childRunId, { ...runOptions, store });
  if (result.stopReason === 'awaiting_approval')
    markChildWaiting(parent, invocation.callId, waitingChildOf(childRunId, result));
  return childOutcome(childRunId, result);
}

/**
 * The options of a child run: the tool's, the parent's approval handler, context and lease, the call's signal; its
 * events go to the tool's `onEvent` and, as `agent_event`s, to the parent run's.
 */
function childRunOptions(
  options: AgentToolOptions,
  parent: RunInProgress | undefined,
  invocation: ToolInvocation,
): LlmAgentRunOptions {
  const inherited = parent?.options;
  const fromParent: LlmAgentRunOptions = {
    ...(inherited?.approvalHandler === undefined ? {} : { approvalHandler: inherited.approvalHandler }),
    ...(inherited?.context === undefined ? {} : { context: inherited.context }),
    ...(inherited?.workerId === undefined ? {} : { workerId: inherited.workerId }),
    ...(inherited?.leaseTtlMs === undefined ? {} : { leaseTtlMs: inherited.leaseTtlMs }),
  };
  // The turn of the call, read now: the parent's turn moves on once its calls are done.
  const turn = parent?.turn ?? 0;
  return {
    ...fromParent,
    ...options.runOptions,
    signal: invocation.signal,
    ...(options.output === undefined ? {} : { output: options.output, outputPolicy: options.outputPolicy }),
    onEvent: (event) => {
      report(options, event);
      if (parent !== undefined) forward(parent, options.name, turn, invocation.callId, event);
    },
  };
}

/**
 * Reports a child's event in the parent run as an `agent_event`, in the parent's `onEvent` (and so its `stream()`):
 * the child's own event with this call as the path, or an event from below the child with this call put in front.
 */
function forward(parent: RunInProgress, name: string, turn: number, callId: string, event: LlmAgentEvent): void {
  const link: AgentCallLink = { runId: parent.runId, turn, callId, toolName: name, childRunId: event.runId };
  const nested: ChildAgentEvent =
    event.type === 'agent_event'
      ? {
          type: 'agent_event',
          runId: parent.runId,
          agent: [name, ...event.agent],
          calls: [link, ...event.calls],
          event: event.event,
        }
      : { type: 'agent_event', runId: parent.runId, agent: [name], calls: [link], event };
  emitTo(parent.options.onEvent, nested);
}

/** Reports a child's event to the tool's listener with its agent path; an event from below the child keeps its part. */
function report(options: AgentToolOptions, event: LlmAgentEvent): void {
  const listener = options.onEvent;
  if (listener === undefined) return;
  const nested: NestedAgentEvent =
    event.type === 'agent_event'
      ? { ...event.event, agent: [options.name, ...event.agent] }
      : { ...event, agent: [options.name] };
  try {
    listener(nested);
  } catch {
    // Observers must not change what runs.
  }
}

/** Creates the child run; false when a run with its id already exists (another worker made it first). */
async function createChild(
  store: RunStore,
  runId: string,
  metadata: Record<string, string>,
  prompt: string,
): Promise<boolean> {
  try {
    await store.createRun({ runId, metadata, messages: [{ role: 'user', content: prompt }] });
    return true;
  } catch (error) {
    if (RunStoreError.isInstance(error) && error.code === 'run_exists') return false;
    throw error;
  }
}

function conflict(childRunId: string): ToolOutcome {
  return toolFailure({
    code: 'conflict',
    category: 'conflict',
    retryable: false,
    message: `the store has a run '${childRunId}' that this call did not start; nothing was run`,
  });
}
