import { AgentRunRecord } from '../durable/agent-run-record';
import { callKey } from '../durable/record-rules';
import { withRunLease } from '../durable/with-run-lease';
import { InMemoryMemory } from '../model/memory';
import { ChatMessage, ModelToolCall } from '../model/model-types';
import { notExecutedOutcome, OpenInputCalls, openInputCalls } from './caller-calls';
import { assistantMessagesOf, isModelResponse, messagesOfRecord } from './turn-messages';
import { loadContinuedConversation, NOTHING_CONTINUED } from './run-input';
import { LlmAgentRunResult, ToolCallResult } from './run-result';
import { RunState } from './run-state';
import { defaultWorkerId, storedStatusOf } from './runner-rules';
import { LlmAgentError } from './runner-error';
import { ModelTurnLoop } from './model-turn-loop';

/**
 * The durability of {@link LlmAgentRunner}'s runs, on top of the model loop: a run's body under its
 * lease with its final status stored, the runner's memory cleaned up after it, the conversation a run
 * continues, and a stored run resumed (its record read under the lease, its pending calls run, then the
 * loop). Each part is a protected method called through `this`, so an override is honoured. @internal
 */
export abstract class DurableRunLoop extends ModelTurnLoop {
  /** A resumed run's structured output restored from its record (see {@link LlmAgentRunner}). */
  protected abstract restoreOutput(run: RunState): Promise<void>;

  /** A run with `output` that ended without its final answer asks for it (see {@link LlmAgentRunner}). */
  protected abstract insistOnFinalAnswer(run: RunState): Promise<void>;

  /** The conversation `continueFrom` names, from the store or else the memory; empty without it. */
  protected continuedConversation(run: RunState): Promise<readonly ChatMessage[]> {
    return run.options.continueFrom === undefined ? NOTHING_CONTINUED : loadContinuedConversation(run.options);
  }

  /** The body of `resume()` and `resumeStream()` for a started run: the record, under the lease, continued. */
  protected resumeRun(run: RunState): Promise<LlmAgentRunResult> {
    const runId = run.runId;
    return this.runDurably(run, async (record) => {
      if (record === undefined) throw new LlmAgentError('run_conflict', `no stored run '${runId}'`);
      if (record.status === 'completed' || record.status === 'cancelled')
        throw new LlmAgentError('run_conflict', `run '${runId}' is ${record.status} and cannot be resumed`);
      run.messages.push(...messagesOfRecord(record));
      run.steps = record.messages.filter((message) => message.role === 'assistant').length;
      run.turn = run.steps;
      run.recordedKeys = new Map(record.toolCalls.flatMap((call) => (call.idempotencyKey === undefined ? [] : [[callKey(call.turn, call.callId), call.idempotencyKey]])));
      await run.recorder?.setStatus('running');
      await this.restoreOutput(run);
      await this.resumePendingCalls(run);
      await this.runLoop(run);
      await this.insistOnFinalAnswer(run);
    });
  }

  /**
   * Runs the calls of the last assistant turn that have no Tool message yet (a resumed run). Only the Tool
   * messages after that assistant message answer its calls: a call id answered in an earlier turn may be reused.
   * Only a model response's calls run (the record says which messages are: see `MessageOrigin`); the calls of an
   * assistant message a caller wrote (`createRun`, `saveMessages`, a host's `appendMessages`) are answered
   * `not_executed` and never dispatched.
   */
  protected async resumePendingCalls(run: RunState): Promise<void> {
    const index = run.messages.findLastIndex((message) => message.role === 'assistant');
    const lastAssistant = run.messages[index];
    if (lastAssistant === undefined || lastAssistant.role !== 'assistant') return;
    const answered = new Set(run.messages.slice(index + 1).flatMap((message) => (message.role === 'tool' ? [message.toolCallId] : [])));
    const pending = lastAssistant.toolCalls.filter((call) => !answered.has(call.id));
    if (pending.length > 0) await this.streams.get(run)?.resumedCalls(run.steps, run.turn, lastAssistant.toolCalls, pending);
    if (pending.length > 0 && !isModelResponse(lastAssistant)) await this.recordToolResults(run, this.refuseCallerCalls(run, pending));
    else if (pending.length > 0) await this.recordToolResults(run, await this.executeToolCalls(run, pending));
    // A turn without calls ended the run, unless a message came after it (a repair asked for): then the model is asked again.
    else if (lastAssistant.toolCalls.length === 0 && index === run.messages.length - 1) {
      run.text = lastAssistant.content;
      run.stopReason = 'end_turn';
    }
  }

  /**
   * Records the input of `complete()` or `stream()`. The calls of its last assistant message that it does not
   * answer (a caller's history, not a model response of this run) are answered `not_executed` right after
   * that message's Tool messages, and never run; the rest of the input follows.
   */
  protected recordInput(run: RunState, input: readonly ChatMessage[]): Promise<void> {
    const open = openInputCalls(input);
    if (open === undefined) return this.recordMessages(run, input);
    return this.recordInputAnswering(run, input, open);
  }

  /** `recordInput` of an input with open calls. */
  private async recordInputAnswering(run: RunState, input: readonly ChatMessage[], open: OpenInputCalls): Promise<void> {
    await this.recordMessages(run, input.slice(0, open.at));
    run.turn = assistantMessagesOf(run);
    await this.recordToolResults(run, this.refuseCallerCalls(run, open.calls));
    await this.recordMessages(run, input.slice(open.at));
  }

  /** Refuses calls of caller-supplied history (`not_executed`, nothing runs); they join the run's calls. */
  protected refuseCallerCalls(run: RunState, calls: readonly ModelToolCall[]): ToolCallResult[] {
    const records = calls.map((call) => this.refuseToolCall(run, call, notExecutedOutcome(call)));
    run.toolCalls.push(...records);
    return records;
  }

  /**
   * Runs the body under the run's lease when the run is durable, then stores the final status.
   * Without a store it just runs the body. When the lease is lost mid-run (taken over, or not
   * renewable), the run's signal aborts, this worker writes nothing more to the run (no admission,
   * no message, no status: another worker owns it now) and the call rejects with the lease's reason
   * (a `RunStoreError` `lease_held` when it was taken over).
   */
  protected async runDurably(run: RunState, body: (record?: AgentRunRecord) => Promise<void>): Promise<LlmAgentRunResult> {
    try {
      return await this.runLeased(run, body);
    } finally {
      this.forgetConversation(run);
    }
  }

  /**
   * The runner's own memory keeps a conversation only while its run runs (the result has it); kept for
   * good, every run of a long-lived runner would stay in memory.
   * @internal
   */
  protected forgetConversation(run: RunState): void {
    if (run.options.memory === undefined && this.defaultMemory instanceof InMemoryMemory) this.defaultMemory.forget(run.runId);
  }

  /**
   * `runDurably` without the memory cleanup: the body under the lease, given the record read once the
   * lease was held, its writes carrying the lease's fencing token; then the final status.
   */
  protected async runLeased(run: RunState, body: (record?: AgentRunRecord) => Promise<void>): Promise<LlmAgentRunResult> {
    const recorder = run.recorder;
    if (recorder === undefined) {
      await body();
      return this.finishRun(run);
    }
    const lease = { workerId: run.options.workerId ?? defaultWorkerId(), ttlMs: run.options.leaseTtlMs ?? 60_000 };
    // Bounded once the run aborts: a store that stops answering (the lease, a write, the release) cannot keep it pending.
    return recorder.settle(withRunLease(recorder.store, run.runId, lease, async (leaseSignal, held) => {
      recorder.holdLease(leaseSignal, held.fencingToken);
      const userSignal = run.options.signal;
      run.options = { ...run.options, signal: userSignal === undefined ? leaseSignal : AbortSignal.any([userSignal, leaseSignal]) };
      try {
        await body(held.record);
      } catch (error) {
        if (leaseSignal.aborted) throw leaseSignal.reason;
        // A run the body refused to continue (already ended) keeps its status.
        if (error instanceof LlmAgentError && error.code === 'run_conflict') throw error;
        await recorder.setStatus('failed').catch(() => undefined);
        throw error;
      }
      await recorder.setStatus(storedStatusOf(run.stopReason));
      return this.finishRun(run);
    }));
  }
}
