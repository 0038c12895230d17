import { mergeOwn } from '../../../outcome/merge-own';
import { standardFailure, ToolOutcome } from '../../../outcome/tool-outcome';
import type { ToolCallRequest } from '../../run-options';
import type { RunInProgress } from '../../run-state';
import { Gate, PASS, refuse } from '../../tool-call/call-gates';
import type { StepContext } from '../../tool-call/step-context';
import { toolCallLimitGate } from '../tool-call-limit';
import { decideInOrder, GuardrailOutcome } from './decide-guardrails';
import { stopForGuardrail } from './guardrail-stop';
import type { ToolBeforeGuardrailContext } from './guardrail-types';

/**
 * Step 6a: the tool's `before` guardrails (`toolGuardrails[toolName].before`, as checked when the run started),
 * asked after every admission check (validation, capabilities, authorization, approval, precondition) and before
 * dispatch. A reject refuses the call
 * with `guardrail_rejected` (the model reads the guardrail's message); a tripwire refuses it with
 * `guardrail_tripped` and stops the run; the run's abort while one is pending refuses it `cancelled`. @internal
 */
export async function guardBeforeDispatch(
  steps: StepContext,
  run: RunInProgress,
  request: ToolCallRequest,
): Promise<Gate<void>> {
  const guardrails = run.control?.configuredGuardrails.toolBefore.get(request.toolName);
  if (guardrails === undefined) return PASS;
  const outcome = await decideInOrder(steps, run, 'tool_before', guardrails, contextOf(run, request), callOf(request));
  const shown = refusalOf(steps, run, request, outcome, 'was not run');
  return shown === undefined ? PASS : refuse(shown);
}

/**
 * Step 6c, the last before the call begins (synchronous, so no other call of the turn can trip the run between it and
 * the dispatch): no guardrail tripped the run (else `guardrail_tripped`, nothing runs), and the contract's
 * `maxCalls` allows one more call of the tool. @internal
 */
export function dispatchGate(run: RunInProgress, request: ToolCallRequest): Gate<void> {
  const stop = run.control?.guardrails.stop;
  if (stop !== undefined && stop.verdict.kind === 'tripwire')
    return refuse(
      standardFailure(
        'guardrail_tripped',
        `the run was stopped by ${stop.kind.replace('_', ' ')} guardrail '${stop.name}'; '${request.toolName}' was not run`,
      ),
    );
  return toolCallLimitGate(run, request);
}

/**
 * Step 9b: the tool's `after` guardrails, asked with the complete outcome before it is projected for the model. A
 * reject makes the model read a `guardrail_rejected` failure instead of the outcome; a tripwire shows it a
 * `guardrail_tripped` failure and stops the run. The outcome itself is kept (admitted, reported) either way.
 * Answers what the model is shown instead, if anything. @internal
 */
export async function guardAfterOutcome(
  steps: StepContext,
  run: RunInProgress,
  request: ToolCallRequest,
  outcome: ToolOutcome,
): Promise<{ readonly modelOutcome?: ToolOutcome }> {
  const guardrails = run.control?.configuredGuardrails.toolAfter.get(request.toolName);
  if (guardrails === undefined) return {};
  const context = mergeOwn(contextOf(run, request), { outcome });
  const decided = await decideInOrder(steps, run, 'tool_after', guardrails, context, callOf(request));
  const shown = refusalOf(steps, run, request, decided, 'ran; its output was withheld');
  return shown === undefined ? {} : { modelOutcome: shown };
}

/** The failure the model reads for a guardrail outcome that does not allow (the run stopped on a tripwire). */
function refusalOf(
  steps: StepContext,
  run: RunInProgress,
  request: ToolCallRequest,
  outcome: GuardrailOutcome,
  what: string,
): ToolOutcome | undefined {
  if (outcome.kind === 'allow') return undefined;
  if (outcome.kind === 'aborted')
    return standardFailure('cancelled', `the run was aborted while a guardrail decided on '${request.toolName}'`);
  const { verdict, name } = outcome.decision;
  if (verdict.kind === 'reject') return standardFailure('guardrail_rejected', verdict.message, { guardrail: name });
  stopForGuardrail(steps, run, outcome.decision);
  return standardFailure('guardrail_tripped', `guardrail '${name}' stopped the run; '${request.toolName}' ${what}`, {
    guardrail: name,
  });
}

function contextOf(run: RunInProgress, request: ToolCallRequest): ToolBeforeGuardrailContext {
  return {
    runId: run.runId,
    step: run.steps,
    callId: request.callId,
    turn: request.turn,
    toolName: request.toolName,
    arguments: request.arguments,
    ...(run.options.context === undefined ? {} : { context: run.options.context }),
  };
}

function callOf(request: ToolCallRequest): { callId: string; turn: number; toolName: string } {
  return { callId: request.callId, turn: request.turn, toolName: request.toolName };
}
