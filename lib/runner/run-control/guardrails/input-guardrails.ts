import type { ChatMessage, ModelResponse } from '../../../model/model-types';
import { standardFailure } from '../../../outcome/tool-outcome';
import type { RunInProgress } from '../../run-state';
import { assistantMessagesOf } from '../../turn-messages';
import type { StepContext } from '../../tool-call/step-context';
import { decideAtOnce, decideInOrder } from './decide-guardrails';
import { applyGuardrailStop } from './guardrail-stop';
import type { InputGuardrailContext } from './guardrail-types';

/**
 * Runs the input guardrails of `complete()` / `stream()` on the recorded input, before the first model request. Those
 * without `runInParallel` are asked one after another first; a reject stops the run (`guardrail_rejected`), a
 * tripwire trips it (`guardrail_tripped`). When they all allow, those with `runInParallel` are started: they run
 * while the first model request is in flight (see {@link requestUnderInputGuardrails}). @internal
 */
export async function guardInput(steps: StepContext, run: RunInProgress, input: readonly ChatMessage[]): Promise<void> {
  const guardrails = run.control?.configuredGuardrails.input ?? [];
  const state = run.control?.guardrails;
  if (guardrails.length === 0 || state === undefined) return;
  const context: InputGuardrailContext = {
    runId: run.runId,
    step: run.steps,
    messages: input,
    text: lastUserText(input),
    ...(run.options.context === undefined ? {} : { context: run.options.context }),
  };
  const first = guardrails.filter((guard) => !guard.runInParallel);
  const outcome = await decideInOrder(steps, run, 'input', first, context);
  if (outcome.kind !== 'allow') return applyGuardrailStop(steps, run, outcome);
  const parallel = guardrails.filter((guard) => guard.runInParallel);
  if (parallel.length > 0) state.parallelInput = decideAtOnce(steps, run, 'input', parallel, context);
}

/**
 * The run's model request (the runner's `requestModel`), under the parallel input guardrails while they are still
 * undecided: the request is sent with a signal that also aborts when one of them does not allow, and its response
 * is taken only once they all allowed. Answers undefined when they stopped the run: the response (if one came) is
 * dropped, never recorded, so none of its tool calls runs. @internal
 */
export async function requestUnderInputGuardrails(
  steps: StepContext,
  run: RunInProgress,
): Promise<ModelResponse | undefined> {
  const state = run.control?.guardrails;
  const pending = state?.parallelInput;
  if (state === undefined || pending === undefined) return await steps.requestModel(run);
  state.parallelInput = undefined;
  const controller = new AbortController();
  const runOptions = run.options;
  const userSignal = runOptions.signal;
  run.options = {
    ...runOptions,
    signal: userSignal === undefined ? controller.signal : AbortSignal.any([userSignal, controller.signal]),
  };
  const deciding = pending.then((outcome) => {
    if (outcome.kind !== 'allow') controller.abort(new Error('an input guardrail stopped the run'));
    return outcome;
  });
  try {
    const [answer, outcome] = await Promise.all([settle(steps.requestModel(run)), deciding]);
    run.options = runOptions;
    if (outcome.kind !== 'allow') {
      applyGuardrailStop(steps, run, outcome);
      if (answer.ok && answer.response.toolCalls.length > 0) await finishDroppedCalls(run, answer.response);
      return undefined;
    }
    if (answer.ok) return answer.response;
    throw answer.error;
  } finally {
    run.options = runOptions;
  }
}

/** In a run of `stream()`: the calls of the dropped response, streamed already, finish refused (none ran). */
async function finishDroppedCalls(run: RunInProgress, response: ModelResponse): Promise<void> {
  const stop = run.control?.guardrails.stop;
  const outcome =
    stop === undefined
      ? standardFailure('cancelled', 'the run was aborted before the call could run')
      : standardFailure(
          stop.verdict.kind === 'tripwire' ? 'guardrail_tripped' : 'guardrail_rejected',
          `input guardrail '${stop.name}' stopped the run before this call could run`,
        );
  await run.stream?.droppedCalls(run.steps, assistantMessagesOf(run.messages) + 1, response.toolCalls, outcome);
}

type Settled =
  { readonly ok: true; readonly response: ModelResponse } | { readonly ok: false; readonly error: unknown };

function settle(responding: Promise<ModelResponse>): Promise<Settled> {
  return responding.then(
    (response): Settled => ({ ok: true, response }),
    (error: unknown): Settled => ({ ok: false, error }),
  );
}

/** The text of the last user message of the input. */
function lastUserText(input: readonly ChatMessage[]): string {
  const last = input.findLast((message) => message.role === 'user');
  if (last?.role !== 'user') return '';
  if (typeof last.content === 'string') return last.content;
  return last.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}
