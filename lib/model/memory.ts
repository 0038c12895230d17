import { ChatMessage } from './model-types';

/**
 * Conversation memory the runner records into: every message it sends to and receives from the
 * model, per run. The Tool message recorded is exactly the projected one the model saw.
 */
export interface Memory {
  /** Appends one message to a run's conversation. */
  append(runId: string, message: ChatMessage): void | Promise<void>;
  /** The run's conversation so far, in order. */
  messages(runId: string): readonly ChatMessage[] | Promise<readonly ChatMessage[]>;
}

/** Process-local {@link Memory}; the runner's default. */
export class InMemoryMemory implements Memory {
  /**
   * Made when a second run is written while the last one is still remembered (a memory per runner often never needs
   * it).
   */
  private conversations: Map<string, ChatMessage[]> | undefined = undefined;
  /**
   * The run written or read last and its conversation: a run's messages come in a row, so most calls
   * need no lookup. A new run stays out of the map until another run is used while it is still
   * remembered, so runs that follow one another (each forgotten when it ends) never touch the map.
   */
  private lastRunId: string | undefined = undefined;
  private lastConversation: ChatMessage[] = [];
  /** Whether the last run is in the map too. */
  private lastInMap = false;

  append(runId: string, message: ChatMessage): void {
    this.conversationOf(runId, true)!.push(message);
  }

  messages(runId: string): readonly ChatMessage[] {
    return this.conversationOf(runId, false) ?? [];
  }

  /** Drops a run's conversation. */
  forget(runId: string): void {
    if (runId !== this.lastRunId) {
      this.conversations?.delete(runId);
      return;
    }
    if (this.lastInMap) this.conversations?.delete(runId);
    this.lastRunId = undefined;
    this.lastConversation = [];
    this.lastInMap = false;
  }

  /**
   * The run's conversation, made the last one used; created empty when `create` (else `undefined` for a run never
   * written).
   */
  private conversationOf(runId: string, create: boolean): ChatMessage[] | undefined {
    if (runId === this.lastRunId) return this.lastConversation;
    const known = this.conversations?.get(runId);
    if (known === undefined && !create) return undefined;
    // The run used last is still remembered: into the map with it, before another takes its place.
    if (this.lastRunId !== undefined && !this.lastInMap)
      (this.conversations ??= new Map()).set(this.lastRunId, this.lastConversation);
    this.lastRunId = runId;
    this.lastConversation = known ?? [];
    this.lastInMap = known !== undefined;
    return this.lastConversation;
  }
}
