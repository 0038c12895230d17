import { ChatMessage, ModelToolCall } from '../../model/model-types';
import { standardFailure, ToolOutcome } from '../../outcome/tool-outcome';

/**
 * The outcome of a tool call found in caller-supplied history rather than in a model response of the run:
 * `not_executed`, never dispatched. The model reads it as the call's answer.
 */
export function notExecutedOutcome(call: ModelToolCall): ToolOutcome {
  return standardFailure(
    'not_executed',
    `'${call.name}' (call '${call.id}') is in the conversation the run was given, not in a response of its model; it was not run`,
  );
}

/**
 * Where the input's open calls are answered, and which: the calls of its last assistant message without a Tool message.
 * @internal
 */
export interface OpenInputCalls {
  /** The index of the input message the answers go before (after the last assistant message and its Tool messages). */
  readonly at: number;
  readonly calls: readonly ModelToolCall[];
}

/**
 * The calls of the input's last assistant message that no Tool message of the input answers, and where their
 * answers belong; `undefined` when there are none. The input is checked (`inputMessages`): only its last
 * assistant message may have such calls, and its Tool messages follow it.
 */
export function openInputCalls(input: readonly ChatMessage[]): OpenInputCalls | undefined {
  const index = input.findLastIndex((message) => message.role === 'assistant');
  const assistant = input[index];
  if (assistant === undefined || assistant.role !== 'assistant' || assistant.toolCalls.length === 0) return undefined;
  let at = index + 1;
  const answered = new Set<string>();
  for (; at < input.length; at++) {
    const message = input[at];
    if (message.role !== 'tool') break;
    answered.add(message.toolCallId);
  }
  const calls = assistant.toolCalls.filter((call) => !answered.has(call.id));
  return calls.length === 0 ? undefined : { at, calls };
}
