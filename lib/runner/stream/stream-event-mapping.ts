import { ModelStreamEvent } from '../../model/model-stream';
import { renderToolMessage } from '../../outcome/render-tool-message';
import { standardFailure, ToolOutcome } from '../../outcome/tool-outcome';
import { LlmAgentEvent } from '../runner-events';
import { LlmAgentStreamEvent } from './stream-events';

/** A call the model began in the current step whose response has not arrived yet. @internal */
export interface OpenCall {
  readonly callId: string;
  readonly toolName: string;
  readonly step: number;
  readonly turn: number;
}

/**
 * The stream event of a model event of step `step` (whose calls get `turn`), if any; keeps `openCalls` (by index in
 * the step) up to date: a started call opens, the step's response closes them all. @internal
 */
export function streamEventOfModelEvent(
  runId: string,
  step: number,
  turn: number,
  event: ModelStreamEvent,
  openCalls: Map<number, OpenCall>,
): LlmAgentStreamEvent | undefined {
  switch (event.type) {
    case 'text_delta':
      return event.text.length > 0 ? { type: 'text_delta', runId, step, text: event.text } : undefined;
    case 'tool_call_started': {
      const { index, id: callId, name: toolName } = event;
      openCalls.set(index, { callId, toolName, step, turn });
      return { type: 'tool_call_started', runId, step, turn, index, callId, toolName };
    }
    case 'tool_call_delta': {
      const call = openCalls.get(event.index);
      if (call === undefined || event.argumentsDelta.length === 0) return undefined;
      const { index, argumentsDelta } = event;
      return { type: 'tool_call_delta', runId, step, turn: call.turn, index, callId: call.callId, argumentsDelta };
    }
    case 'response':
      // From here the per-call path owns the calls: each gets its `tool_call_finished` from there.
      openCalls.clear();
      return undefined;
  }
}

/** The stream's `tool_call_finished` of the runner's, in step `step`. @internal */
export function finishedCallEvent(
  runId: string,
  step: number,
  event: Extract<LlmAgentEvent, { type: 'tool_call_finished' }>,
): LlmAgentStreamEvent {
  const { callId, turn, toolName, outcome, content, attempts, durationMs } = event;
  return { type: 'tool_call_finished', runId, step, turn, callId, toolName, outcome, content, attempts, durationMs };
}

/** The `tool_call_finished` of a call whose model answer never completed: `cancelled`, not run. @internal */
export function unfinishedCallEvent(runId: string, call: OpenCall): LlmAgentStreamEvent {
  const outcome = standardFailure(
    'cancelled',
    `the model's answer with '${call.toolName}' never completed, so the call was not run`,
  );
  return notRunCallEvent(runId, call, outcome);
}

/** The `tool_call_finished` of a streamed call the run did not run: `outcome`, as the model would read it. @internal */
export function notRunCallEvent(
  runId: string,
  call: Pick<OpenCall, 'step' | 'turn' | 'callId' | 'toolName'>,
  outcome: ToolOutcome,
): LlmAgentStreamEvent {
  const { step, turn, callId, toolName } = call;
  const content = renderToolMessage(outcome);
  return {
    type: 'tool_call_finished',
    runId,
    step,
    turn,
    callId,
    toolName,
    outcome,
    content,
    attempts: 0,
    durationMs: 0,
  };
}
