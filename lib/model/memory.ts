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

  append(runId: string, message: ChatMessage): void {
    let conversation = this.conversations.get(runId);
    if (conversation === undefined) {
      conversation = [];
      this.conversations.set(runId, conversation);
    }
    conversation.push(message);
  }

  messages(runId: string): readonly ChatMessage[] {
    return this.conversations.get(runId) ?? [];
  }

  /** Drops a run's conversation. */
  forget(runId: string): void {
    this.conversations.delete(runId);
  }
}
