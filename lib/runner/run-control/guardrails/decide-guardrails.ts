import { messageOf } from '../../../errors/message-of';
import { callHook, HookResult } from '../../tool-call/call-hook';
import type { RunInProgress } from '../../run-state';
import type { StepContext } from '../../tool-call/step-context';
import type { GuardrailDecision, GuardrailFunction, GuardrailKind, GuardrailVerdict } from './guardrail-types';

/** A guardrail with its name resolved. @internal */
export interface ResolvedGuardrail<Context> {
  readonly name: string;
  readonly check: GuardrailFunction<Context>;
  readonly runInParallel: boolean;
}

/** How deciding one or more guardrails ended: the first verdict that is not `allow` (with its guardrail), or none. */
export type GuardrailOutcome =
  | { readonly kind: 'allow' }
  | { readonly kind: 'reject' | 'tripwire'; readonly decision: GuardrailDecision }
  | { readonly kind: 'aborted' };

/**
 * Asks the guardrails one after another and answers at the first that does not allow. Each decision is reported
 * (`guardrail_decided`). A guardrail that throws, rejects or answers something that is not a verdict trips the run
 * (fail closed); the run's abort while one is pending answers `aborted`. @internal
 */
export async function decideInOrder<Context>(
  steps: StepContext,
  run: RunInProgress,
  kind: GuardrailKind,
  guardrails: readonly ResolvedGuardrail<Context>[],
  context: Context,
  call?: GuardrailDecision['call'],
): Promise<GuardrailOutcome> {
  for (const guard of guardrails) {
    const answered = callHook(() => guard.check(context), run.options.signal);
    const outcome = decisionOf(steps, run, kind, guard.name, await answered, call);
    if (outcome.kind !== 'allow') return outcome;
  }
  return { kind: 'allow' };
}

/**
 * Asks the guardrails all at once; answers at the first that does not allow (the others' late answers are ignored),
 * or once all allowed. @internal
 */
export function decideAtOnce<Context>(
  steps: StepContext,
  run: RunInProgress,
  kind: GuardrailKind,
  guardrails: readonly ResolvedGuardrail<Context>[],
  context: Context,
): Promise<GuardrailOutcome> {
  return new Promise((resolve) => {
    let pending = guardrails.length;
    let settled = false;
    if (pending === 0) resolve({ kind: 'allow' });
    for (const guard of guardrails)
      void Promise.resolve(callHook(() => guard.check(context), run.options.signal)).then((answer) => {
        if (settled) return;
        // decisionOf never throws (a verdict whose fields cannot be read trips the run), so every guardrail settles.
        const outcome = decisionOf(steps, run, kind, guard.name, answer, undefined);
        pending--;
        if (outcome.kind !== 'allow' || pending === 0) {
          settled = true;
          resolve(outcome);
        }
      });
  });
}

const VERDICTS = 'guardrail.allow(), rejectContent(), tripwire()';

/** One guardrail's answer as a decision, reported; fail closed on anything but a verdict. */
function decisionOf(
  steps: StepContext,
  run: RunInProgress,
  kind: GuardrailKind,
  name: string,
  answer: HookResult<unknown>,
  call: GuardrailDecision['call'],
): GuardrailOutcome {
  if (answer.kind === 'aborted') return { kind: 'aborted' };
  const verdict: GuardrailVerdict =
    answer.kind === 'failed'
      ? { kind: 'tripwire', reason: `guardrail '${name}' failed: ${messageOf(answer.error)}` }
      : (checkedVerdict(answer.value) ?? {
          kind: 'tripwire',
          reason: `guardrail '${name}' answered ${describe(answer.value)}, not a verdict (${VERDICTS})`,
        });
  const decision: GuardrailDecision = { kind, name, verdict, ...(call === undefined ? {} : { call }) };
  steps.emit(run, { type: 'guardrail_decided', runId: run.runId, step: run.steps, ...decision });
  return verdict.kind === 'allow' ? { kind: 'allow' } : { kind: verdict.kind, decision };
}

/**
 * `value` as a verdict, its fields read once into a copy; undefined when it is malformed (a reject without a message, a
 * tripwire without reason) or its fields cannot be read (a throwing getter, a hostile proxy).
 */
function checkedVerdict(value: unknown): GuardrailVerdict | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  let kind: unknown, message: unknown, reason: unknown;
  try {
    ({ kind, message, reason } = value as Record<string, unknown>);
  } catch {
    return undefined;
  }
  if (kind === 'allow') return { kind };
  if (kind === 'reject' && typeof message === 'string' && message.length > 0) return { kind, message };
  if (kind === 'tripwire' && typeof reason === 'string') return { kind, reason };
  return undefined;
}

function describe(value: unknown): string {
  if (value === undefined || value === null) return String(value);
  if (typeof value !== 'object') return typeof value;
  try {
    return JSON.stringify(value).slice(0, 80);
  } catch {
    return 'an object';
  }
}
