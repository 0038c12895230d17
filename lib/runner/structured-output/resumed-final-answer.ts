import { ChatMessage } from '../../model/model-types';
import { askForFinalAnswer, FinalAnswerState } from './final-answer';

/**
 * Restores the final-answer state of a resumed run with `output` from its recorded conversation, so the
 * resume goes on as the run would have:
 *
 * - each earlier turn whose final answer was refused (invalid, beside other calls, repeated), and each
 *   request for a missing final answer, counts as a repair already made: `maxRepairs` bounds the whole run;
 * - a final answer the last turn already had accepted (the run stopped after recording it, before its
 *   status) is parsed again and taken: the value is returned and nothing more runs.
 *
 * A final answer still without its Tool message is left to the resume, which judges it as `complete()` would.
 */
export async function restoreFinalAnswer(
  state: FinalAnswerState,
  messages: readonly ChatMessage[],
): Promise<{ readonly text: string } | undefined> {
  const name = state.compiled.tool.name;
  const request = finalAnswerRequestText(state);
  let lastAssistant = -1;
  messages.forEach((message, index) => {
    if (message.role === 'assistant') lastAssistant = index;
    else if (message.role === 'user' && message.content === request && lastAssistant >= 0) state.repairs++;
  });
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index];
    if (message.role !== 'assistant') continue;
    const first = message.toolCalls.find((call) => call.name === name);
    if (first === undefined) continue;
    const answer = toolMessagesOf(messages, index).find((tool) => tool.toolCallId === first.id);
    if (answer === undefined) continue;
    if (answer.isError) {
      state.repairs++;
      state.lastAnswer = first.arguments;
      continue;
    }
    if (index !== lastAssistant) continue;
    const parsed = await state.compiled.parse(first.arguments);
    if (!parsed.ok) continue;
    state.accepted = { value: parsed.value };
    return { text: message.content };
  }
  return undefined;
}

/** The Tool messages that answer the assistant message at `index`: those after it, up to the next non-Tool message. */
function toolMessagesOf(messages: readonly ChatMessage[], index: number): Extract<ChatMessage, { role: 'tool' }>[] {
  const tools: Extract<ChatMessage, { role: 'tool' }>[] = [];
  for (const message of messages.slice(index + 1)) {
    if (message.role !== 'tool') break;
    tools.push(message);
  }
  return tools;
}

/** The user message a run records when its model ended a turn without the final answer. */
function finalAnswerRequestText(state: FinalAnswerState): string {
  // The same function writes it; a scratch state keeps this run's repair count untouched.
  return askForFinalAnswer({ compiled: state.compiled, repairs: -1 });
}
