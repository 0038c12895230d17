import { resolve } from 'node:path';
import { RunEventJournal } from '../runner/run-event-journal';
import { CliError } from './cli-error';
import { CliIo } from './cli-io';
import { emit, loadRecord, StoreOptions, withStore } from './command-context';
import { formatProgress } from './format-event';
import { progressLine } from './progress-line';
import { LlmAgentEvent } from '../runner/runner-events';
import { loadAgent } from './load-agent';
import { escapeTerminalLine, oneLine } from './terminal-text';

/** Options of `wuwe resume`. */
export interface ResumeOptions extends StoreOptions {
  /** The module exporting the runner. */
  readonly agent: string;
  readonly json?: boolean;
  /** No progress lines on stderr. @default false */
  readonly quiet?: boolean;
  /** Appends the resumed run's events, with their times, to this file (see `RunEventJournal`). @default none */
  readonly events?: string;
}

/**
 * `wuwe resume <run> --agent <module>`: continues a stored run with the module's runner (after an approval
 * was decided, or after a crash), printing progress to stderr. Exit 0 when the run completed or is waiting
 * for another approval, 1 when it failed, 4 when it cannot be resumed (completed, cancelled).
 */
export async function resumeRun(io: CliIo, runId: string, options: ResumeOptions): Promise<number> {
  return withStore(io, { ...options, access: 'write' }, async (context) => {
    const before = await loadRecord(context.store, runId);
    if (before.status === 'completed' || before.status === 'cancelled')
      throw new CliError('conflict', `run '${runId}' is ${before.status} and cannot be resumed`);
    const pending = before.approvals.filter((approval) => approval.state === 'pending');
    if (pending.length > 0 && !context.json)
      io.stderr(
        `${oneLine`note: ${pending.length} approval(s) still pending (${pending.map((approval) => approval.callId).join(', ')}); the run will suspend again`}\n`,
      );
    const agent = await loadAgent(options.agent, context.cwd);
    const onEvent = agent.runOptions.onEvent;
    const journal =
      options.events === undefined ? undefined : new RunEventJournal({ file: resolve(context.cwd, options.events) });
    const progress = progressLine(io, !context.json && options.quiet !== true);
    let status = `resuming ${runId}`;
    const result = await agent.runner
      .resume(runId, {
        ...agent.runOptions,
        store: context.store,
        onEvent: (event) => {
          onEvent?.(event);
          journal?.onEvent(event);
          const line = options.quiet === true ? undefined : formatProgress(event);
          if (line !== undefined) {
            progress.clear();
            io.stderr(`${escapeTerminalLine(line)}\n`);
          }
          status = resumeStatus(runId, event, status);
          progress.update(status);
        },
      })
      .finally(() => progress.clear());
    const after = await loadRecord(context.store, runId);
    const summary = {
      runId,
      status: after.status,
      stopReason: result.stopReason,
      steps: result.steps,
      text: result.text,
    };
    emit(
      context,
      summary,
      `${oneLine`run ${runId}: ${after.status} (${result.stopReason}) after ${result.steps} model requests`}\n${result.text ? `${oneLine`assistant: ${result.text}`}\n` : ''}`,
    );
    return after.status === 'failed' ? 1 : 0;
  });
}

/** The progress line of `resume` after an event: what the run is doing now. */
function resumeStatus(runId: string, event: LlmAgentEvent, previous: string): string {
  switch (event.type) {
    case 'model_requested':
      return `resuming ${runId}: waiting for model request ${event.step}`;
    case 'tool_attempt_started':
      return `resuming ${runId}: ${event.toolName} running (attempt ${event.attempt})`;
    case 'tool_retry':
      return `resuming ${runId}: ${event.toolName} retrying in ${Math.round(event.delayMs)} ms`;
    case 'tool_heartbeat':
      return `resuming ${runId}: ${event.toolName} running${event.progress?.fraction === undefined ? '' : ` ${Math.round(event.progress.fraction * 100)}%`}${event.progress?.message ? ` ${event.progress.message}` : ''}`;
    case 'approval_requested':
      return `resuming ${runId}: ${event.toolName} waiting for approval`;
    default:
      return previous;
  }
}
