import { ToolDescriptor, ToolOutputProjectionPolicy } from '../contract/tool-descriptor';
import { TextTokenEstimator } from '../projection/text-token-estimator';
import { ToolImagePolicy } from '../projection/tool-image-policy';
import { ToolOutputProjectionReport } from '../projection/tool-output-projection-result';
import { RunStore } from '../durable/run-store';
import { Memory } from '../model/memory';
import { JsonObject } from '../outcome/json-value';
import { ToolOutcome } from '../outcome/tool-outcome';
import { ArgumentLimits } from '../validation/argument-limits';
import { LlmAgentEvent } from './runner-events';
import { RunnerClock } from './runner-clock';
import { StructuredOutputPolicy, StructuredOutputSchema } from './structured-output/structured-output';
import { StreamBufferPolicy } from './stream/stream-buffer-policy';
import type { KeepRunEventsPolicy } from './stream/keep-events-policy';
import type { ModelPriceTable, RunBudget } from './run-control/budget/run-budget';
import type { StopCondition } from './run-control/stop-conditions';
import type { PrepareStep, ToolChoice } from './run-control/tool-control';
import type { InputGuardrail, OutputGuardrail, ToolGuardrailMap } from './run-control/guardrails/guardrail-types';

/** A validated call as host hooks see it: the one parsed argument object approval, audit and execution share. */
export interface ToolCallRequest {
  readonly runId: string;
  readonly callId: string;
  /**
   * The turn that asked for the call: the model step (from 1), the ordinal of its assistant message in the
   * conversation. With the call id it identifies the call: a call id reused in a later turn is another call.
   */
  readonly turn: number;
  readonly toolName: string;
  readonly arguments: JsonObject;
  readonly descriptor: ToolDescriptor;
}

/** What `allowToolCall` answers: a boolean, or a decision with a reason the model will see. */
export type ToolCallPermission = boolean | { readonly allowed: boolean; readonly reason?: string };

/** What an approval handler answers. */
export interface ToolApprovalDecision {
  readonly approved: boolean;
  readonly reason?: string;
  /** Who decided, for the audit record. */
  readonly decidedBy?: string;
}

/**
 * Options of a run. All optional; `LlmAgentRunner` merges the options given to its constructor
 * with those given to `complete()`.
 */
export interface LlmAgentRunOptions {
  /** System prompt. */
  readonly system?: string;
  /** Most model requests in one run. @default 16 */
  readonly maxSteps?: number;
  /**
   * Which tools the model may or must call in each request (`auto`, `required`, `none`, `{ tool }`), sent as each
   * client's `tool_choice`. A client that cannot send it (no `supportsToolChoice`) is `invalid_run_options` before
   * any request. @default none: the provider's default (`auto`)
   */
  readonly toolChoice?: ToolChoice;
  /**
   * The tools offered to the model, by name (the final-answer tool of `output` is always offered). A call of another
   * tool is refused `tool_not_active` and not run; an unknown name is `invalid_run_options`. @default every tool
   */
  readonly activeTools?: readonly string[];
  /**
   * Called before each model request with the step number, the run so far and the budget left; its answer changes
   * that request's `activeTools`, `toolChoice`, `system` or `messages`. @default none
   */
  readonly prepareStep?: PrepareStep;
  /**
   * Conditions checked after each step whose tool calls ran (besides `maxSteps`): when one holds, the run stops
   * with stop reason `stop_condition` (stored `stopped`, so it can be resumed). See `stepCountIs`, `hasToolCall`.
   * @default none
   */
  readonly stopWhen?: StopCondition | readonly StopCondition[];
  /**
   * Hard limits of the run (tokens, cost, tool calls, model requests, wall time), checked before each model request
   * and each tool call; the run stops with stop reason `budget_exhausted`. @default none
   */
  readonly budget?: RunBudget;
  /** Prices by model name, for `budget.maxCostUsd` and a budget key's `maxCostUsd` (none built in). @default none */
  readonly modelPrices?: ModelPriceTable;
  /**
   * Guardrails on the input of `complete()` / `stream()` (not asked on `resume()`), asked before the first model
   * request, or while it is in flight with `runInParallel`. A reject ends the run with the guardrail's message
   * (`guardrail_rejected`), a tripwire stops it (`guardrail_tripped`); in parallel either aborts the request and
   * nothing of its response runs. A guardrail that throws or answers no verdict trips the run. @default none
   */
  readonly inputGuardrails?: readonly InputGuardrail[];
  /**
   * Guardrails on the final answer (stop reason `end_turn`; typed with `output` in a run with structured output). A
   * reject sends its message back to the model and the run goes on (within `maxSteps`); a tripwire stops the run.
   * @default none
   */
  readonly outputGuardrails?: readonly OutputGuardrail<never>[];
  /**
   * Guardrails of tools, by tool name: `before` (after every admission check, before dispatch; a reject refuses the
   * call `guardrail_rejected`) and `after` (after the outcome, before projection; a reject shows the model the
   * refusal instead of the output). A tripwire stops the run (`guardrail_tripped`). An unknown tool name is
   * `invalid_run_options`. @default none
   */
  readonly toolGuardrails?: ToolGuardrailMap;
  /**
   * A budget key (a tenant, a team) whose limits all its runs share, across runs and processes: the host sets them
   * with `store.budgetKeys.setKeyBudget(key, limits)`, the store keeps the spending. Before each model request the
   * run reserves its estimated input and output cap against the key, atomically, and settles to the real usage
   * after; before each tool call it reserves one call. When the key's limit would be crossed the run stops with
   * stop reason `budget_exhausted` (fail closed). Needs a store with `budgetKeys` (`invalid_run_options` otherwise,
   * before any request); a key never set fails the run with `budget_key_not_found`. @default none
   */
  readonly budgetKey?: string;
  /** Aborts the run: the model request and every running tool call. */
  readonly signal?: AbortSignal;
  /** @default a random UUID */
  readonly runId?: string;
  /** Host execution context, given to providers that declare `invocationContext`. */
  readonly context?: unknown;
  /**
   * Host policy, checked after validation: authorization is not schema validation. Fails closed: a
   * throw or rejection refuses the call (`permission_denied`, a `hook_failed` event), nothing runs.
   * While it is pending, an abort of the run refuses the call as `cancelled` without waiting for it.
   * @default allow all
   */
  readonly allowToolCall?: (request: ToolCallRequest) => ToolCallPermission | Promise<ToolCallPermission>;
  /**
   * Decides calls that need approval. Fails closed: a throw or rejection denies the call
   * (`approval_denied`, a `hook_failed` event; a durable run stores the denial). While it is pending
   * (a human may take hours), an abort of the run refuses the call as `cancelled` without waiting.
   * @default none: such calls are denied (fail closed)
   */
  readonly approvalHandler?: (request: ToolCallRequest) => ToolApprovalDecision | Promise<ToolApprovalDecision>;
  /**
   * Last change to an outcome after operational retries, before output validation. A throw or
   * rejection replaces the outcome with a `tool_error` failure saying the tool ran but its result
   * was withheld (the unprepared outcome is not sent, since the hook may exist to redact it), and
   * emits `hook_failed`; the other calls of the turn and the run go on. An abort of the run while
   * it is pending ends the call as `cancelled` at once (the tool ran).
   */
  readonly prepareToolResult?: (outcome: ToolOutcome, request: ToolCallRequest) => ToolOutcome | Promise<ToolOutcome>;
  /**
   * Receives the final outcome of every call that has a validated request (after durable
   * admission, before projection): executed calls, and calls refused after their arguments
   * validated (capabilities, `allowToolCall`, approval denied, precondition, abort before the start,
   * the store's refusal). Not called for calls refused before that, which have no request (unknown
   * tool, invalid arguments, a repeated call id, a call of an answer cut at `max_tokens`), nor for a
   * call suspended for approval until its outcome exists: `tool_call_finished` events cover every call.
   * An observer: a throw or rejection changes nothing the model sees, is reported as a `hook_failed`
   * event, and the run goes on; one still pending when the run aborts is not waited for. Delivery is
   * at least once: an admitted outcome reused by `resume()` (after a crash, or a turn suspended for
   * approval) is delivered again.
   */
  readonly onToolResult?: (outcome: ToolOutcome, request: ToolCallRequest) => void | Promise<void>;
  /** Receives every event; a throwing handler does not disturb the run. */
  readonly onEvent?: (event: LlmAgentEvent) => void;
  /**
   * Conversation memory. Pass one to keep conversations after their runs.
   * @default the runner's own InMemoryMemory, which keeps a run's conversation only while the run
   * runs (the result carries the messages), so a long-lived runner does not accumulate every run
   */
  readonly memory?: Memory;
  /** @default the system clock */
  readonly clock?: RunnerClock;
  /**
   * Attempts of one call never overlap. After an attempt given up at its deadline or heartbeat limit
   * whose tool ignores its aborted signal, a due retry waits (alongside its backoff) at most this
   * long for that tool to settle; when it is still running, the call is not retried and ends with
   * the attempt's failure (`details.abandonedAttempt: 'running'`).
   * @default 5000
   */
  readonly abandonedAttemptGraceMs?: number;
  /**
   * Once the run's signal aborts, how long the runner still waits for the store (a write pending at the abort,
   * the writes after it such as the final status, the lease release). A store that has not answered by then is
   * abandoned: `complete()`/`resume()` rejects with `LlmAgentError` `store_write_abandoned`. The abandoned write
   * may still land later (a lease takeover's fencing token refuses it); the record keeps whatever it held
   * (usually status `running`), so resume the run as after a crash.
   * @default 1000
   */
  readonly abortedWriteGraceMs?: number;
  /** Randomness of backoff jitter, in [0, 1). @default Math.random */
  readonly random?: () => number;
  /** @default DEFAULT_ARGUMENT_LIMITS */
  readonly argumentLimits?: ArgumentLimits;
  /**
   * Ceilings of the model-visible Tool message; a contract can only tighten them. @default
   * DEFAULT_TOOL_OUTPUT_PROJECTION (64 KiB, 10,000 tokens)
   */
  readonly toolOutputProjection?: ToolOutputProjectionPolicy;
  /**
   * Limits of the images tool outcomes send to the model (`ToolOutcome.images`), apart from the text ceilings. @default
   * DEFAULT_TOOL_IMAGE_POLICY (5 MiB per image, 8 images)
   */
  readonly toolImages?: ToolImagePolicy;
  /** Token estimator of the model's context. @default the UTF-8-aware fallback estimator */
  readonly contextTokenEstimator?: TextTokenEstimator;
  /**
   * Durable record of the run. With a store, every outcome is admitted before the model sees it,
   * `resume(runId)` continues after a crash, and a call that needs approval with no
   * `approvalHandler` suspends the run (`awaiting_approval`) until a decision is stored.
   * @default none
   */
  readonly store?: RunStore;
  /**
   * Id of an earlier run whose conversation this run continues, in this process or another: its
   * messages (read from `store` when there is one, else from `memory`) come before the input, and
   * this run records them as its own start. The earlier run is left as it is; this run has its own
   * id, record and idempotency keys. A conversation whose last turn has tool calls without results
   * is refused (`run_conflict`: `resume()` it), an unknown one too (`conversation_not_found`).
   * @default none: the run starts with its input
   */
  readonly continueFrom?: string;
  /**
   * The shape of the run's final answer: a class with `@Field()` properties or a Standard Schema.
   * The model gets its JSON Schema as the provider's native structured output (the final text is the
   * answer) when the client supports it, else a final-answer tool (see `outputPolicy.mode`); a valid
   * answer ends the run and its value (the class instance, or the schema's output) is `result.output`. Bad answers are
   * sent back for
   * repair under `outputPolicy`, then the run fails with `StructuredOutputError`.
   * @default none: the answer is the model's text
   */
  readonly output?: StructuredOutputSchema;
  /** @default DEFAULT_STRUCTURED_OUTPUT_POLICY (mode `auto`, name `final_answer`, 2 repairs) */
  readonly outputPolicy?: StructuredOutputPolicy;
  /**
   * Backpressure of `stream()` / `resumeStream()`: how many events wait for a slow consumer before the run
   * waits for it (ignored by `complete()` and `resume()`).
   * @default DEFAULT_STREAM_BUFFER_POLICY (256 events)
   */
  readonly streamBuffer?: StreamBufferPolicy;
  /**
   * Keeps the run's stream events in `store` (which must keep run events: the memory, SQLite and PostgreSQL stores
   * do), each with an id increasing per run, so another process can follow the run with `followRun()`; the run
   * is streamed even under `complete()` and `resume()`. See {@link KeepRunEventsPolicy} for retention.
   * @default none: no events kept
   */
  readonly keepEvents?: KeepRunEventsPolicy;
  /** This worker's id for the run's lease. @default host name, process id and a random suffix */
  readonly workerId?: string;
  /** Lease duration; a crashed worker's run can be taken over this long after its last renewal. @default 60000 */
  readonly leaseTtlMs?: number;
  /**
   * Sees the report of every projection (truncated or not). An observer: a throw is reported as `hook_failed` and
   * changes nothing.
   */
  readonly onToolOutputProjection?: (
    report: ToolOutputProjectionReport,
    call: { readonly callId: string; readonly turn: number; readonly toolName: string },
  ) => void;
}

/** Options of `LlmAgentRunner.invokeToolCall`: the run options, and the turn of the host's loop the call belongs to. */
export interface InvokeToolCallOptions extends LlmAgentRunOptions {
  /** The turn that asked for the call (see {@link ToolCallRequest.turn}); a positive integer. @default 1 */
  readonly turn?: number;
}
