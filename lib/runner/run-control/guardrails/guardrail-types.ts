import type { ChatMessage } from '../../../model/model-types';
import type { JsonObject } from '../../../outcome/json-value';
import type { ToolOutcome } from '../../../outcome/tool-outcome';
import type { MaybePromise } from '../../maybe-promise';
import type { LlmAgentRunOptions } from '../../run-options';
import type { StructuredOutputOf, StructuredOutputSchema } from '../../structured-output/structured-output';

/**
 * What a guardrail answers: let it through (`allow`), put a refusal in front of the model instead
 * (`reject`, with the `message` the model reads), or stop the run (`tripwire`, with the `reason` the host reads).
 * Build them with {@link guardrail}.
 */
export type GuardrailVerdict =
  | { readonly kind: 'allow' }
  | { readonly kind: 'reject'; readonly message: string }
  | { readonly kind: 'tripwire'; readonly reason: string };

/** The verdict constructors: `guardrail.allow()`, `guardrail.rejectContent(message)`, `guardrail.tripwire(reason)`. */
export const guardrail = Object.freeze({
  /** Lets the input, call, outcome or answer through. */
  allow: (): GuardrailVerdict => ALLOW,
  /** The model reads `message` instead (see each guardrail kind for what it replaces). */
  rejectContent: (message: string): GuardrailVerdict => ({ kind: 'reject', message }),
  /** Stops the run with stop reason `guardrail_tripped`; nothing further executes. */
  tripwire: (reason: string): GuardrailVerdict => ({ kind: 'tripwire', reason }),
});

const ALLOW: GuardrailVerdict = Object.freeze({ kind: 'allow' });

/** Where a guardrail sits: the run's input, a tool call before dispatch or after its outcome, the final answer. */
export type GuardrailKind = 'input' | 'tool_before' | 'tool_after' | 'output';

/** What every guardrail sees. */
export interface GuardrailContextBase {
  readonly runId: string;
  /** Model requests made so far in the run (0 for an input guardrail that runs before the first one). */
  readonly step: number;
  /** The run's `context` option, as given. */
  readonly context?: unknown;
}

/** What an input guardrail sees: the input messages of `complete()` / `stream()`, and the text of the last one. */
export interface InputGuardrailContext extends GuardrailContextBase {
  readonly messages: readonly ChatMessage[];
  /** The text of the last user message (its text parts joined by a new line). */
  readonly text: string;
}

/** What a tool guardrail sees before dispatch: the call, its validated arguments. */
export interface ToolBeforeGuardrailContext extends GuardrailContextBase {
  readonly callId: string;
  readonly turn: number;
  readonly toolName: string;
  readonly arguments: JsonObject;
}

/** What a tool guardrail sees after the outcome: the call and its complete outcome (before projection). */
export interface ToolAfterGuardrailContext extends ToolBeforeGuardrailContext {
  readonly outcome: ToolOutcome;
}

/** What an output guardrail sees: the final text and, in a run with `output`, the validated final answer. */
export interface OutputGuardrailContext<Output = unknown> extends GuardrailContextBase {
  readonly text: string;
  /** The validated final answer of a run with `output`; absent otherwise. */
  readonly output?: Output;
}

/** A guardrail function: sync or async. A throw, a rejection or an answer that is not a verdict trips the run. */
export type GuardrailFunction<Context> = (context: Context) => MaybePromise<GuardrailVerdict>;

/** A named guardrail. The name is reported in events, the record and the CLI. */
export interface NamedGuardrail<Context> {
  /** @default the function's name, else `<kind>#<index>` */
  readonly name?: string;
  readonly check: GuardrailFunction<Context>;
}

/** A guardrail: a function or a named one. */
export type Guardrail<Context> = GuardrailFunction<Context> | NamedGuardrail<Context>;

/**
 * An input guardrail. With `runInParallel: true` it runs while the first model request is in flight: a tripwire or
 * a reject aborts that request and nothing of its response runs. Without it, it finishes before the first request.
 */
export type InputGuardrail =
  | GuardrailFunction<InputGuardrailContext>
  | (NamedGuardrail<InputGuardrailContext> & {
      /** @default false */
      readonly runInParallel?: boolean;
    });

/** An output guardrail, typed with the run's `output`. */
export type OutputGuardrail<Output = unknown> = Guardrail<OutputGuardrailContext<Output>>;

/** The guardrails of one tool: `before` dispatch (after every admission check), `after` its outcome. */
export interface ToolGuardrails {
  readonly before?: Guardrail<ToolBeforeGuardrailContext> | readonly Guardrail<ToolBeforeGuardrailContext>[];
  readonly after?: Guardrail<ToolAfterGuardrailContext> | readonly Guardrail<ToolAfterGuardrailContext>[];
}

/** Tool guardrails by tool name. */
export type ToolGuardrailMap = Readonly<Record<string, ToolGuardrails>>;

/** One guardrail's decision, as events and the run's result report it. */
export interface GuardrailDecision {
  readonly kind: GuardrailKind;
  readonly name: string;
  readonly verdict: GuardrailVerdict;
  /** The call it was about (tool guardrails). */
  readonly call?: { readonly callId: string; readonly turn: number; readonly toolName: string };
}

/** The options of a run with structured `output`: its output guardrails see the typed final answer. */
export type OutputRunOptions<S extends StructuredOutputSchema> = Omit<LlmAgentRunOptions, 'outputGuardrails'> & {
  readonly output: S;
  readonly outputGuardrails?: readonly OutputGuardrail<StructuredOutputOf<S>>[];
};
