import { isRunLinkedDescriptor, linkParentRun } from '../../agents/parent-run-link';
import { ToolInvocation } from '../../providers/tool-invocation';
import { RunInProgress } from '../run-state';
import { AdmittedCall } from './call-types';
import { copyArguments } from './copy-arguments';
import { AttemptHandle } from './run-tool-attempt';

/**
 * The invocation a rich provider receives; guarded fields only with the declared capability. A
 * class, so `signal` is read from the attempt on each access: always the attempt's current signal.
 */
export class RunnerInvocation implements ToolInvocation {
  readonly toolName: string;
  readonly descriptor: ToolInvocation['descriptor'];
  readonly arguments: ToolInvocation['arguments'];
  readonly callId: string;
  readonly idempotencyKey: string | undefined;
  readonly runId: string;
  readonly context: unknown;
  readonly deadline: ToolInvocation['deadline'];
  readonly reportHeartbeat: ToolInvocation['reportHeartbeat'];

  constructor(
    run: RunInProgress,
    call: AdmittedCall,
    readonly attempt: number,
    private readonly live: AttemptHandle,
    heartbeat: boolean,
  ) {
    const { request, capabilities } = call;
    this.toolName = request.toolName;
    this.descriptor = request.descriptor;
    this.arguments = copyArguments(request.arguments);
    this.callId = request.callId;
    this.idempotencyKey = capabilities.idempotencyKey ? call.idempotencyKey : undefined;
    this.runId = run.runId;
    this.context = capabilities.invocationContext ? run.options.context : undefined;
    this.deadline = { timeoutMs: request.descriptor.timeoutMs, deadlineAtMs: live.deadlineAtMs };
    this.reportHeartbeat = heartbeat ? live.reportHeartbeat : noHeartbeat;
    // Only the tools that need it reach the run that called them: an agent tool (its child run goes in the same
    // store) and a handoff's transfer tool (one transfer a turn).
    if (isRunLinkedDescriptor(request.descriptor)) linkParentRun(this, run);
  }

  get signal(): AbortSignal {
    return this.live.signal;
  }
}

const noHeartbeat = (): void => undefined;
