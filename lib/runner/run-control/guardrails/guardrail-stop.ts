import type { AgentRunRecord } from '../../../durable/agent-run-record';
import type { ChatMessage } from '../../../model/model-types';
import type { RunInProgress } from '../../run-state';
import type { StepContext } from '../../tool-call/step-context';
import type { GuardrailOutcome } from './decide-guardrails';
import type { GuardrailDecision } from './guardrail-types';

/** The guardrail state of one run. @internal */
export interface GuardrailRunState {
  /** The decision that stopped the run: a tripwire (any kind), or an input guardrail's reject. */
  stop?: GuardrailDecision;
  /** True once the notice of `stop` is in the conversation. */
  noticeRecorded: boolean;
  /** The parallel input guardrails, running while the first model request is in flight. */
  parallelInput?: Promise<GuardrailOutcome>;
}

/** The codes a guardrail notice starts with, between brackets. */
export type GuardrailNoticeCode = 'guardrail_tripped' | 'guardrail_rejected';

/**
 * A guardrail notice as the record holds it: the last message of the conversation, an assistant message the runner
 * wrote (origin `other`, never a model response) without tool calls, whose text starts with `[guardrail_tripped]` or
 * `[guardrail_rejected]`.
 */
export interface GuardrailNotice {
  readonly code: GuardrailNoticeCode;
  readonly text: string;
}

/** The state of a new run. @internal */
export function newGuardrailRunState(): GuardrailRunState {
  return { noticeRecorded: false };
}

/**
 * Stops the run for a guardrail's decision (the first one that stops it is kept): a tripwire stops it with stop
 * reason `guardrail_tripped` (reported as `guardrail_tripped`), an input guardrail's reject with `guardrail_rejected`.
 * @internal
 */
export function stopForGuardrail(steps: StepContext, run: RunInProgress, decision: GuardrailDecision): void {
  const state = run.control?.guardrails;
  if (state === undefined) return;
  if (state.stop === undefined) {
    state.stop = decision;
    if (decision.verdict.kind === 'tripwire')
      steps.emit(run, {
        type: 'guardrail_tripped',
        runId: run.runId,
        kind: decision.kind,
        name: decision.name,
        reason: decision.verdict.reason,
        ...(decision.call === undefined ? {} : { call: decision.call }),
      });
  }
  run.stopReason = state.stop.verdict.kind === 'tripwire' ? 'guardrail_tripped' : 'guardrail_rejected';
}

/** Applies a guardrail outcome that does not allow to the run (a stop, or the run's abort). @internal */
export function applyGuardrailStop(steps: StepContext, run: RunInProgress, outcome: GuardrailOutcome): void {
  if (outcome.kind === 'aborted') run.stopReason = 'aborted';
  else if (outcome.kind !== 'allow') stopForGuardrail(steps, run, outcome.decision);
}

/**
 * When a guardrail stopped the run: records its notice once (after the Tool messages of the turn, so the transcript
 * stays well-formed), sets the run's text to it and answers true. A resumed run whose record ends with a notice is
 * stopped too. @internal
 */
export async function endedByGuardrail(steps: StepContext, run: RunInProgress): Promise<boolean> {
  const state = run.control?.guardrails;
  if (run.stopReason !== 'guardrail_tripped' && run.stopReason !== 'guardrail_rejected' && state?.stop === undefined)
    return false;
  if (state?.stop !== undefined) {
    // A final answer accepted in the turn that tripped does not end the run as `end_turn`.
    run.stopReason = state.stop.verdict.kind === 'tripwire' ? 'guardrail_tripped' : 'guardrail_rejected';
    if (!state.noticeRecorded) {
      state.noticeRecorded = true;
      const content = noticeTextOf(state.stop);
      await steps.recordMessage(run, { role: 'assistant', content, toolCalls: [] });
      run.text = content;
    }
  }
  return true;
}

/** The text of the notice of a stopping decision. */
function noticeTextOf(decision: GuardrailDecision): string {
  const { verdict, kind, name } = decision;
  const where = decision.call === undefined ? '' : ` on '${decision.call.toolName}'`;
  const said = verdict.kind === 'tripwire' ? verdict.reason : verdict.kind === 'reject' ? verdict.message : '';
  const code: GuardrailNoticeCode = verdict.kind === 'tripwire' ? 'guardrail_tripped' : 'guardrail_rejected';
  return `[${code}] ${kind.replace('_', ' ')} guardrail '${name}'${where}: ${said}`;
}

/**
 * The guardrail notice a record ends with, if it does (see {@link GuardrailNotice}); a resume of such a run runs
 * nothing more, and `wuwe runs show` reports it.
 */
export function guardrailNoticeOf(
  record: Pick<AgentRunRecord, 'messages' | 'messageOrigins'>,
): GuardrailNotice | undefined {
  const index = record.messages.length - 1;
  const last: ChatMessage | undefined = record.messages[index];
  if (last?.role !== 'assistant' || last.toolCalls.length > 0 || record.messageOrigins?.[index] !== 'other')
    return undefined;
  const code = (['guardrail_tripped', 'guardrail_rejected'] as const).find((name) =>
    last.content.startsWith(`[${name}] `),
  );
  return code === undefined ? undefined : { code, text: last.content };
}

/** Stops a resumed run whose record ends with a guardrail notice; answers whether it did. @internal */
export function resumedGuardrailStop(run: RunInProgress, record: AgentRunRecord | undefined): boolean {
  const notice = record === undefined ? undefined : guardrailNoticeOf(record);
  if (notice === undefined) return false;
  run.stopReason = notice.code;
  run.text = notice.text;
  return true;
}
