import { ChatMessage, RunStore } from '../../lib';
import { CreateRunOptions } from '../../lib/durable';

/**
 * Creates a run whose messages are stored as the runner records them: its assistant messages as model
 * responses (origin `model`), the others with origin `other`. For records a crash leaves behind.
 */
export async function createRecordedRun(
  store: RunStore,
  options: CreateRunOptions & { readonly runId: string; readonly messages: readonly ChatMessage[] },
): Promise<void> {
  const { messages, ...run } = options;
  await store.createRun(run);
  for (const message of messages)
    await store.appendMessages(options.runId, [message], { origin: message.role === 'assistant' ? 'model' : 'other' });
}
