import type { RunInProgress } from '../../run-state';
import type { StepContext } from '../../tool-call/step-context';
import { decideInOrder } from './decide-guardrails';
import { applyGuardrailStop } from './guardrail-stop';
import type { OutputGuardrailContext } from './guardrail-types';

/**
 * Asks the output guardrails about the final answer of a run that ended its turn with one (stop reason `end_turn`;
 * in a run with `output`, once the answer was validated). A reject answers the guardrail's message, which goes back
 * to the model as a user message, and the run goes on (within `maxSteps`; a run with `output` must give its answer
 * again); a tripwire stops the run (`guardrail_tripped`). Answers undefined when the answer stands. @internal
 */
export async function outputGuardrailFeedback(steps: StepContext, run: RunInProgress): Promise<string | undefined> {
  const guardrails = run.control?.configuredGuardrails.output ?? [];
  if (guardrails.length === 0 || run.stopReason !== 'end_turn') return undefined;
  const { output } = run;
  if (output !== undefined && output.accepted === undefined) return undefined;
  const context: OutputGuardrailContext = {
    runId: run.runId,
    step: run.steps,
    text: run.text,
    ...(output?.accepted === undefined ? {} : { output: output.accepted.value }),
    ...(run.options.context === undefined ? {} : { context: run.options.context }),
  };
  const outcome = await decideInOrder(steps, run, 'output', guardrails, context);
  if (outcome.kind === 'allow') return undefined;
  if (outcome.kind === 'reject') {
    if (output !== undefined) output.accepted = undefined;
    return outcome.decision.verdict.kind === 'reject' ? outcome.decision.verdict.message : undefined;
  }
  applyGuardrailStop(steps, run, outcome);
  return undefined;
}
