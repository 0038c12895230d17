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
  private readonly conversations = new Map<string, ChatMessage[]>();
  /** The run written or read last and its conversation: a run's messages come in a row, so most calls need no lookup. */
  private lastRunId: string | undefined = undefined;
  private lastConversation: ChatMessage[] | undefined = undefined;

  append(runId: string, message: ChatMessage): void {
    this.conversationOf(runId, true)!.push(message);
  }

  messages(runId: string): readonly ChatMessage[] {
    return this.conversationOf(runId, false) ?? [];
  }

  /** Drops a run's conversation. */
  forget(runId: string): void {
    this.conversations.delete(runId);
    if (runId === this.lastRunId) {
      this.lastRunId = undefined;
      this.lastConversation = undefined;
    }
  }

  private conversationOf(runId: string, create: boolean): ChatMessage[] | undefined {
    if (runId === this.lastRunId) return this.lastConversation;
    let conversation = this.conversations.get(runId);
    if (conversation === undefined) {
      if (!create) return undefined;
      conversation = [];
      this.conversations.set(runId, conversation);
    }
    this.lastRunId = runId;
    this.lastConversation = conversation;
    return conversation;
  }
}
