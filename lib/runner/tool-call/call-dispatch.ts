import { ToolOutcome } from '../../outcome/tool-outcome';
import { HeartbeatProgress } from '../../providers/tool-invocation';
import { ToolProvider } from '../../providers/tool-provider';
import { MaybePromise } from '../maybe-promise';
import { RunInProgress } from '../run-state';
import { RunnerClock } from '../runner-clock';
import { noteAbandonedAttempt } from './call-retries';
import { AdmittedCall, DispatchedCall } from './call-types';
import { copyArguments } from './copy-arguments';
import { AttemptHandle, runToolAttempt, ToolAttemptOptions } from './run-tool-attempt';
import { RunnerInvocation } from './runner-invocation';
import { StepContext } from './step-context';

export type { AdmittedCall, DispatchedCall } from './call-types';

/** The `dispatchWithRetries` step as `LlmAgentRunner` defines it (documented there). */
export async function dispatchWithRetries(
  steps: StepContext,
  run: RunInProgress,
  call: AdmittedCall,
): Promise<DispatchedCall> {
  const first = await steps.dispatchAttempt(run, call, 1);
  if (first.ok || call.request.descriptor.retry.maxAttempts <= 1) return { outcome: first, attempts: 1 };
  return await steps.retryAttempts(run, call, first);
}

/** The `dispatchAttempt` step as `LlmAgentRunner` defines it (documented there). */
export function dispatchAttempt(
  steps: StepContext,
  run: RunInProgress,
  provider: ToolProvider,
  call: AdmittedCall,
  attempt: number,
): MaybePromise<ToolOutcome> {
  const { request } = call;
  steps.emit(run, {
    type: 'tool_attempt_started',
    runId: run.runId,
    callId: request.callId,
    turn: request.turn,
    toolName: request.toolName,
    attempt,
  });
  return runToolAttempt(new DispatchedAttempt(steps, run, provider, call, attempt));
}

/**
 * The options of one dispatched attempt: the run's clock and signal, the contract's limits, and the hooks that report
 * the attempt's events.
 */
class DispatchedAttempt implements ToolAttemptOptions {
  readonly clock: RunnerClock;
  readonly timeoutMs: number;
  readonly idleTimeoutMs: number | undefined;
  readonly runSignal: AbortSignal | undefined;
  readonly expectsData: boolean;

  constructor(
    private readonly steps: StepContext,
    private readonly run: RunInProgress,
    private readonly provider: ToolProvider,
    private readonly call: AdmittedCall,
    private readonly attempt: number,
  ) {
    const { descriptor } = call.request;
    this.clock = run.clock;
    this.timeoutMs = descriptor.timeoutMs;
    this.idleTimeoutMs = descriptor.heartbeat?.idleTimeoutMs;
    this.runSignal = run.options.signal;
    this.expectsData = descriptor.outputSchema !== undefined;
  }

  start(live: AttemptHandle): unknown {
    const { provider, call } = this;
    const { request } = call;
    if (provider.invokeTool === undefined)
      return provider.invoke!(request.toolName, copyArguments(request.arguments), live.signal);
    return provider.invokeTool(
      new RunnerInvocation(this.run, call, this.attempt, live, call.capabilities.heartbeat === true),
    );
  }

  onAbandoned(settled: Promise<void>): void {
    noteAbandonedAttempt(this.call, settled);
  }

  onHeartbeat(progress?: HeartbeatProgress): void {
    this.steps.emit(this.run, { type: 'tool_heartbeat', ...this.eventBase(), progress });
  }

  onTimeout(limit: 'deadline' | 'heartbeat', limitMs: number): void {
    this.steps.emit(this.run, { type: 'tool_timeout', ...this.eventBase(), limit, limitMs });
  }

  onLateResult(outcome: ToolOutcome): void {
    this.steps.emit(this.run, { type: 'tool_late_result_discarded', ...this.eventBase(), outcome });
  }

  /** The fields every event of the attempt shares. */
  private eventBase(): { runId: string; callId: string; turn: number; toolName: string; attempt: number } {
    const { request } = this.call;
    const { runId } = this.run;
    return { runId, callId: request.callId, turn: request.turn, toolName: request.toolName, attempt: this.attempt };
  }
}
