import { toolFailure, ToolOutcome, toolText } from '../../outcome/tool-outcome';
import { CompensationResult, ToolProvider } from '../../providers/tool-provider';
import { isPromiseLike } from '../maybe-promise';
import { RunInProgress } from '../run-state';
import { AdmittedCall } from './call-types';
import { runToolAttempt } from './run-tool-attempt';
import { RunnerInvocation } from './runner-invocation';
import { StepContext } from './step-context';

/** The `compensate` step as `LlmAgentRunner` defines it (documented there). */
export async function compensate(
  steps: StepContext,
  run: RunInProgress,
  provider: ToolProvider,
  call: AdmittedCall,
  attempt: number,
  failure: ToolOutcome,
): Promise<ToolOutcome> {
  const { request } = call;
  let ok = false;
  let message: string | undefined;
  const undo = provider.compensate?.bind(provider);
  if (request.descriptor.compensation.enabled && call.capabilities.compensation && undo !== undefined) {
    const asOutcome = (result: CompensationResult): ToolOutcome =>
      result.ok
        ? toolText(result.message ?? '')
        : toolFailure({
            code: 'compensation_failed',
            retryable: false,
            message: result.message ?? 'compensation failed',
          });
    const undone = await runToolAttempt({
      clock: run.clock,
      timeoutMs: request.descriptor.timeoutMs,
      runSignal: run.options.signal,
      start: (live) => {
        const result = undo(new RunnerInvocation(run, call, attempt, live, false), failure);
        return isPromiseLike(result) ? Promise.resolve(result).then(asOutcome) : asOutcome(result);
      },
    });
    ok = undone.ok;
    message = undone.ok ? undone.text || undefined : undone.error?.message;
  } else {
    message = 'compensation is not enabled for this tool';
  }
  steps.emit(run, {
    type: 'compensation_finished',
    runId: run.runId,
    callId: request.callId,
    turn: request.turn,
    toolName: request.toolName,
    attempt,
    ok,
    message,
  });
  return { ...failure, compensation: ok ? 'completed' : 'failed' };
}
