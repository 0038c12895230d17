import { LlmAgentEvent } from '../runner/runner-events';
import type { McpRequestContext } from './mcp-tool-server';

/**
 * Turns the heartbeats of one call into `notifications/progress` (when the client sent a progress
 * token): `progress` counts the heartbeats (it must increase), the message carries the fraction done
 * and the tool's status text.
 * @internal
 */
export class ProgressForwarder {
  private count = 0;
  private readonly pending: Promise<void>[] = [];

  constructor(
    private readonly callId: string,
    private readonly context: McpRequestContext,
  ) {}

  forward(event: LlmAgentEvent): void {
    const progressToken = this.context._meta?.progressToken;
    if (event.type !== 'tool_heartbeat' || event.callId !== this.callId || progressToken === undefined) return;
    this.count++;
    const message = event.progress?.message;
    const fraction = event.progress?.fraction;
    const text =
      fraction === undefined ? message : `${Math.round(fraction * 100)}%${message === undefined ? '' : ` ${message}`}`;
    const sent = this.context.sendNotification({
      method: 'notifications/progress',
      params: { progressToken, progress: this.count, ...(text === undefined ? {} : { message: text }) },
    });
    this.pending.push(sent.catch(() => undefined));
  }

  /** Resolves when every notification sent so far has been written. */
  async flushed(): Promise<void> {
    await Promise.all(this.pending);
  }
}
