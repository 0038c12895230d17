import { newRunId } from './new-run-id';
import { ToolOutputProjectionReport } from '../projection/tool-output-projection-result';
import { InMemoryMemory, Memory } from '../model/memory';
import { ModelStepper } from '../model/model-stepper';
import { LlmTool } from '../contract/llm-tool';
import { ChatMessage, ModelRequest, ModelResponse, ModelToolCall } from '../model/model-types';
import { ToolProvider } from '../providers/tool-provider';
import { LlmAgentRunOptions } from './run-options';
import { FinalAnswerState } from './final-answer';
import { LlmAgentRunResult, LlmAgentStopReason, ToolCallResult } from './run-result';
import { RunState } from './run-state';
import { RunRecorder } from './run-recorder';
import { checkRunLimits, stopReasonOf } from './runner-rules';
import { LlmAgentError } from './runner-error';
import { SYSTEM_CLOCK } from './runner-clock';
import { untilAborted } from './maybe-promise';
import { AbortGrace, DEFAULT_ABORTED_WRITE_GRACE_MS } from './abort-grace';
import { ToolCallPipeline } from './tool-call-pipeline';
import { standardFailure } from '../outcome/tool-outcome';
import { RunStreamChannel } from './run-stream';
import { streamModelStep } from './stream-model-step';
import { limitReached } from './run-steps';
import { assistantMessageOf, assistantMessagesOf } from './turn-messages';

/**
 * The model loop of {@link LlmAgentRunner}, on top of the per-call path: a run's state started and its
 * result finished, the loop of model steps, each step's chain (the request sent, the response counted
 * and recorded, its turn begun, its calls run or refused, their Tool messages recorded), and the
 * recording of messages in the history, the memory and the durable record. A step calls the others
 * through `this`, so an override of one step is honoured by every other. @internal
 */
export abstract class ModelTurnLoop extends ToolCallPipeline {
  protected readonly defaultMemory: Memory = new InMemoryMemory();
  /** The stream of each run started by `stream()`. @internal */
  protected readonly streams = new WeakMap<RunState, RunStreamChannel>();
  /** The final-answer state of each run with `output`. @internal */
  protected readonly outputs = new WeakMap<RunState, FinalAnswerState>();

  /** @see ToolCallPipeline for the checks made on the provider's tools. */
  constructor(
    readonly model: ModelStepper,
    provider: ToolProvider,
    protected readonly defaults: LlmAgentRunOptions,
  ) {
    super(provider);
  }

  /** The tools the model is offered in a run (structured output adds its final-answer tool). */
  protected abstract toolsOf(run: RunState): readonly LlmTool[];

  /** The loop: model steps until a stop reason is set. */
  protected async runLoop(run: RunState): Promise<void> {
    while (run.stopReason === undefined) {
      const limit = limitReached(run);
      if (limit === undefined) await this.runStep(run);
      else run.stopReason = limit;
    }
  }

  /**
   * One model request and the tool calls it asked for: the answer recorded, its turn begun, its calls run
   * (or refused, when the answer was cut) and their Tool messages recorded.
   */
  protected async runStep(run: RunState): Promise<void> {
    let response: ModelResponse;
    try {
      response = await this.requestModel(run);
    } catch (error) {
      // A request cut short by the run's abort stops the run; any other failure fails it.
      if (!run.options.signal?.aborted) throw error;
      run.stopReason = 'aborted';
      return;
    }
    await this.recordMessage(run, assistantMessageOf(response));
    if (!this.beginTurn(run, response)) return;
    const calls = response.toolCalls;
    const records = response.stopReason === 'max_tokens' ? this.refuseIncompleteToolCalls(run, calls) : await this.executeToolCalls(run, calls);
    await this.recordToolResults(run, records);
  }

  /**
   * The turn of a recorded answer begins: its ordinal and text taken. False when it asked for no tool call
   * (the run then stops with the answer's stop reason, unless the model only paused its turn).
   * @internal
   */
  protected beginTurn(run: RunState, response: ModelResponse): boolean {
    // The calls of this answer belong to its turn, the ordinal of its assistant message in the whole record (a run
    // started from an earlier conversation carries its assistant messages over): a call id reused later is another call.
    run.turn = assistantMessagesOf(run);
    run.text = response.text;
    if (response.toolCalls.length > 0) return true;
    if (response.stopReason !== 'pause_turn') run.stopReason = stopReasonOf(response);
    return false;
  }

  /**
   * The model's answer was cut at its token limit, so the arguments of its tool calls may be cut
   * too (a truncated string still matches a `string` schema). None of them runs; each gets
   * `incomplete_tool_call` so the model can ask again with a shorter answer.
   */
  protected refuseIncompleteToolCalls(run: RunState, calls: readonly ModelToolCall[]): ToolCallResult[] {
    const records = calls.map((call) =>
      this.refuseToolCall(
        run,
        call,
        standardFailure('incomplete_tool_call', `the answer was cut at the model's token limit, so the arguments of '${call.name}' may be incomplete; it was not run`),
      ),
    );
    run.toolCalls.push(...records);
    return records;
  }

  /**
   * Appends the Tool messages of a turn, in call order; in a durable run each admitted call's
   * projection audit is stored in the same transaction as its message, so the audit describes exactly
   * the content the model gets. When a call waits for a stored approval the turn is left open and the run
   * suspends (`awaiting_approval`); completed calls stay admitted, and their projection is audited
   * when the turn is answered after the resume (under the policy of that run).
   */
  protected async recordToolResults(run: RunState, records: readonly ToolCallResult[]): Promise<void> {
    if (records.some((record) => record.awaitingApproval === true)) {
      run.stopReason = 'awaiting_approval';
      return;
    }
    for (const record of records) await this.recordToolResult(run, record);
  }

  /** Records messages in order, each once the one before is written. @internal */
  protected async recordMessages(run: RunState, messages: readonly ChatMessage[]): Promise<void> {
    for (const message of messages) await this.recordMessage(run, message);
  }

  /** Records the Tool message of one call, with its projection audit when the call was admitted. */
  private recordToolResult(run: RunState, record: ToolCallResult): Promise<void> {
    const audited = record.admitted === true ? record.projection : undefined;
    const isError = !record.outcome.ok || record.projection === undefined;
    const parts = record.parts;
    const message: ChatMessage =
      parts === undefined || parts.length === 0
        ? { role: 'tool', toolCallId: record.callId, toolName: record.toolName, content: record.content, isError }
        : { role: 'tool', toolCallId: record.callId, toolName: record.toolName, content: record.content, isError, parts };
    return this.recordMessage(run, message, audited);
  }

  /** Creates the state of a run from the merged options; throws `invalid_run_options` for a limit that cannot work. */
  protected startRun(options: LlmAgentRunOptions): RunState {
    const merged: LlmAgentRunOptions = { ...this.defaults, ...options };
    checkRunLimits(merged);
    const runId = merged.runId ?? newRunId();
    const run: RunState = {
      runId,
      options: merged,
      recorder: merged.store === undefined ? undefined : new RunRecorder(merged.store, runId, abortGraceOf(merged, runId)),
      clock: merged.clock ?? SYSTEM_CLOCK,
      messages: [],
      toolCalls: [],
      usage: { inputTokens: 0, outputTokens: 0 },
      steps: 0,
      turn: 1,
      text: '',
      stopReason: undefined,
    };
    this.checkProjectionPolicies(run);
    this.emit(run, { type: 'run_started', runId: run.runId });
    return run;
  }

  /** Sends the conversation to the model; when the run aborts first, rejects at once with the abort reason. */
  protected async requestModel(run: RunState): Promise<ModelResponse> {
    const response = await this.sendModelRequest(run);
    run.usage = {
      inputTokens: run.usage.inputTokens + response.usage.inputTokens,
      outputTokens: run.usage.outputTokens + response.usage.outputTokens,
    };
    this.emit(run, { type: 'model_responded', runId: run.runId, step: run.steps, response });
    return response;
  }

  /** The request of the next step sent, raced against the run's signal (a client that ignores it must not keep the run waiting). */
  private sendModelRequest(run: RunState): Promise<ModelResponse> {
    run.steps++;
    this.emit(run, { type: 'model_requested', runId: run.runId, step: run.steps });
    const signal = run.options.signal ?? NEVER_ABORTED;
    // Raced against the signal: a client that ignores it must not keep the run waiting after an abort.
    const format = this.outputs.get(run)?.native;
    const system = run.options.system;
    const messages = run.messages.slice();
    const tools = this.toolsOf(run);
    const request: ModelRequest = format === undefined ? { system, messages, tools, signal } : { system, messages, tools, signal, responseFormat: format };
    return untilAborted(this.stepModel(run, request), run.options.signal);
  }

  /**
   * The model request itself: `step()`, or in a run of `stream()` a streamed step whose deltas reach
   * the stream as they arrive (`stream()` and `complete()` differ in this step only).
   */
  protected stepModel(run: RunState, request: ModelRequest): Promise<ModelResponse> {
    const channel = this.streams.get(run);
    if (channel === undefined) return this.model.step(request);
    const step = run.steps;
    // The turn its calls will have: the ordinal of the assistant message this step is about to add.
    const turn = assistantMessagesOf(run) + 1;
    return streamModelStep(this.model, request, (event) => channel.modelEvent(step, turn, event));
  }

  /** Appends a message to the history and the memory; a Tool message's projection audit, when given, is stored with it. */
  protected async recordMessage(run: RunState, message: ChatMessage, projection?: ToolOutputProjectionReport): Promise<void> {
    run.messages.push(message);
    await run.recorder?.appendMessage(message, projection === undefined ? undefined : { turn: run.turn, report: projection });
    await (run.options.memory ?? this.defaultMemory).append(run.runId, message);
  }

  /** Builds the result and reports the end of the run. */
  protected finishRun(run: RunState): LlmAgentRunResult {
    const stopReason: LlmAgentStopReason = run.stopReason ?? 'other';
    this.emit(run, { type: 'run_finished', runId: run.runId, stopReason });
    const { runId, text, messages, toolCalls, usage, steps } = run;
    const accepted = this.outputs.get(run)?.accepted;
    if (accepted === undefined) return { runId, text, messages, toolCalls, usage, stopReason, steps };
    return { runId, text, messages, toolCalls, usage, stopReason, steps, output: accepted.value };
  }
}

/** The signal of runs without one: never aborts. */
const NEVER_ABORTED: AbortSignal = new AbortController().signal;

/** The bound on a run's store operations once its signal aborts (`abortedWriteGraceMs`). */
function abortGraceOf(options: LlmAgentRunOptions, runId: string): AbortGrace | undefined {
  const signal = options.signal;
  if (signal === undefined) return undefined;
  const graceMs = options.abortedWriteGraceMs ?? DEFAULT_ABORTED_WRITE_GRACE_MS;
  return new AbortGrace(signal, graceMs, options.clock ?? SYSTEM_CLOCK, () =>
    new LlmAgentError(
      'store_write_abandoned',
      `run '${runId}' was aborted and its store did not answer within ${graceMs} ms; the runner stopped waiting (the write may still land, ` +
        'fenced by the lease). Resume the run as after a crash.',
      { cause: signal.reason },
    ),
  );
}
