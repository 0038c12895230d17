import { ToolDescriptor } from '../contract/tool-descriptor';
import { ModelToolCall } from '../model/model-types';
import { toolFailure } from '../outcome/tool-outcome';
import { renderToolMessage } from '../outcome/render-tool-message';
import { ToolInvocation } from '../providers/tool-invocation';
import type { ToolCallResult } from '../runner/run-result';
import type { RunInProgress } from '../runner/run-state';

/**
 * The runs of the invocations the runner made, so an agent tool reaches the run that called it (its store, signal,
 * approval handler, events). Only the runner links an invocation: a provider cannot forge one.
 */
const parentRuns = new WeakMap<ToolInvocation, RunInProgress>();

/** The descriptors made by agent tools: only these calls run a child run (a marker no other provider can set). */
const agentToolDescriptors = new WeakSet<ToolDescriptor>();

/** The descriptors whose invocations reach the run that made them (agent tools, handoff transfer tools). */
const runLinkedDescriptors = new WeakSet<ToolDescriptor>();

/** Marks `descriptor` as an agent tool's (its invocations reach their run too). @internal */
export function markAgentToolDescriptor(descriptor: ToolDescriptor): void {
  agentToolDescriptors.add(descriptor);
  runLinkedDescriptors.add(descriptor);
}

/** Marks `descriptor` as one whose invocations reach the run that made them ({@link parentRunOf}). @internal */
export function markRunLinkedDescriptor(descriptor: ToolDescriptor): void {
  runLinkedDescriptors.add(descriptor);
}

/** Whether the runner links the invocations of `descriptor` to their run. @internal */
export function isRunLinkedDescriptor(descriptor: ToolDescriptor): boolean {
  return runLinkedDescriptors.has(descriptor);
}

/** Whether `descriptor` was made by an agent tool (`runner.asTool`). @internal */
export function isAgentToolDescriptor(descriptor: ToolDescriptor): boolean {
  return agentToolDescriptors.has(descriptor);
}

/** The child runs that wait for an approval, by the parent run and the call that started them. */
const waitingChildren = new WeakMap<RunInProgress, Map<string, WaitingChild>>();

/** A child run that ended `awaiting_approval`, and the runs of its subtree that wait. */
export interface WaitingChild {
  readonly childRunId: string;
  /** Every run in the child's subtree with a pending approval, the child first. */
  readonly waitingRunIds: readonly string[];
}

/** Links an invocation to the run that made it; called by the runner for every invocation. @internal */
export function linkParentRun(invocation: ToolInvocation, run: RunInProgress): void {
  parentRuns.set(invocation, run);
}

/** The run that made an invocation, when the runner made it. @internal */
export function parentRunOf(invocation: ToolInvocation): RunInProgress | undefined {
  return parentRuns.get(invocation);
}

/** Marks a call of `run` as suspended on a child run that waits for an approval. @internal */
export function markChildWaiting(run: RunInProgress, callId: string, waiting: WaitingChild): void {
  const calls = waitingChildren.get(run) ?? new Map<string, WaitingChild>();
  calls.set(callId, waiting);
  waitingChildren.set(run, calls);
}

/**
 * The runner's hook after a call's dispatch: when the call ran an agent tool whose child run waits for an approval,
 * the call is suspended (not admitted, no Tool message) and its result names the waiting child, so the run ends
 * `awaiting_approval` and a resume runs the call again, which resumes the child. Otherwise undefined. @internal
 */
export function suspendedOnChild(
  run: RunInProgress,
  call: ModelToolCall,
  start: { readonly idempotencyKey: string; readonly startedAt: number; readonly args: ToolCallResult['arguments'] },
): ToolCallResult | undefined {
  const waiting = waitingChildren.get(run)?.get(call.id);
  if (waiting === undefined) return undefined;
  waitingChildren.get(run)?.delete(call.id);
  const outcome = toolFailure({
    code: 'approval_pending',
    category: 'permission',
    retryable: false,
    message: `'${call.name}' waits for an approval decision in its child run '${waiting.childRunId}'`,
    details: { childRunId: waiting.childRunId, waitingRunIds: [...waiting.waitingRunIds] },
  });
  return {
    callId: call.id,
    turn: run.turn,
    toolName: call.name,
    rawArguments: call.arguments,
    arguments: start.args,
    outcome,
    attempts: 1,
    idempotencyKey: start.idempotencyKey,
    content: renderToolMessage(outcome),
    durationMs: run.clock.now() - start.startedAt,
    awaitingApproval: true,
  };
}
