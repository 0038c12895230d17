import { isToolOutcome, normalizeToolOutcome } from '../../outcome/tool-outcome';
import { Gate } from './call-gates';
import { LlmAgentError } from '../runner-error';

/** The protected steps of the per-call path that answer a {@link Gate}. @internal */
export type GateStepName =
  'resolveTool' | 'validateArguments' | 'checkCapabilities' | 'authorize' | 'requestApproval' | 'checkPrecondition';

/**
 * The answer of a gate step, checked: a `Gate` (`continue` with its value, `refuse` with a failure
 * outcome, `suspend`) goes on, a refusal's failure with its standard category and retryability
 * filled in. Anything else (an override written for another shape, such as a `ToolOutcome`) is an
 * {@link LlmAgentError} `invalid_step_answer` naming the step, thrown before anything later runs:
 * the call is neither admitted nor dispatched.
 * @internal
 */
export function checkedGate<T>(answer: Gate<T>, step: GateStepName): Gate<T> {
  const kind = typeof answer === 'object' && answer !== null ? (answer as { kind?: unknown }).kind : undefined;
  if (kind === 'continue') {
    if (
      (step === 'resolveTool' || step === 'validateArguments') &&
      !isPlainObject((answer as { value?: unknown }).value)
    )
      throw invalidAnswer(
        step,
        answer,
        step === 'resolveTool' ? 'its value must be the tool descriptor' : 'its value must be the arguments object',
      );
    return answer;
  }
  if (kind === 'suspend') return answer;
  if (kind === 'refuse') {
    const outcome: unknown = (answer as { outcome?: unknown }).outcome;
    if (!isToolOutcome(outcome) || outcome.ok)
      throw invalidAnswer(
        step,
        answer,
        'a refusal carries a failure outcome ({ ok: false, error: { code, message } })',
      );
    const normalized = normalizeToolOutcome(outcome);
    return normalized === outcome ? answer : { kind: 'refuse', outcome: normalized };
  }
  throw invalidAnswer(
    step,
    answer,
    "a Gate is { kind: 'continue', value } | { kind: 'refuse', outcome } | { kind: 'suspend' }",
  );
}

function isPlainObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalidAnswer(step: GateStepName, answer: unknown, rule: string): LlmAgentError {
  return new LlmAgentError(
    'invalid_step_answer',
    `the protected step ${step}() answered ${describe(answer)}, which is not a Gate: ${rule}; the call was not run`,
  );
}

function describe(answer: unknown): string {
  if (answer === null || typeof answer !== 'object')
    return typeof answer === 'string' ? JSON.stringify(answer.slice(0, 80)) : String(answer);
  const keys = Object.keys(answer).slice(0, 8);
  const kind = (answer as { kind?: unknown }).kind;
  const shownKind = typeof kind === 'string' ? ` and kind ${JSON.stringify(kind.slice(0, 80))}` : '';
  return `an object with keys [${keys.join(', ')}]${shownKind}`;
}
