/**
 * The transcript rules the providers' APIs enforce on a request (each answers 400 to a request that breaks
 * one), checked on the bodies the real SDKs sent to the local servers:
 *
 * - Messages API: an assistant message with `tool_use` blocks is followed by a user message that answers every
 *   one of them with a `tool_result` (and answers nothing else);
 * - Chat Completions (also the AI SDK's wire): an assistant message with `tool_calls` is followed by one `tool`
 *   message per call id, and a `tool` message answers a call of the assistant message before it;
 * - Responses API: every `function_call` item has one `function_call_output` with its `call_id` after it, and
 *   every output answers a call before it;
 * - the scripted client's `ChatMessage`s follow the Chat Completions rule.
 *
 * Tool-call ids are unique within a request in every format.
 */

/** The request formats of the matrix. */
export type WireFormat = 'anthropic' | 'chat' | 'responses' | 'scripted';

/** The breaches of `format`'s rules in one request body, each naming the request's index. */
export function transcriptViolations(format: WireFormat, body: any, index: number): string[] {
  const found =
    format === 'anthropic'
      ? anthropicViolations(body.messages)
      : format === 'responses'
        ? responsesViolations(body.input)
        : chatViolations(format === 'scripted' ? body : body.messages, format === 'scripted');
  return found.map((violation) => `request ${index}: ${violation}`);
}

const sameSet = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && [...a].sort().join('\u0000') === [...b].sort().join('\u0000');

function duplicates(ids: readonly string[]): string[] {
  return ids.filter((id, at) => ids.indexOf(id) !== at);
}

function anthropicViolations(messages: any[]): string[] {
  const found: string[] = [];
  const allUses: string[] = [];
  messages.forEach((message, at) => {
    const blocks: any[] = Array.isArray(message.content) ? message.content : [];
    const uses = blocks.filter((block) => block.type === 'tool_use').map((block) => String(block.id));
    allUses.push(...uses);
    const results = blocks.filter((block) => block.type === 'tool_result').map((block) => String(block.tool_use_id));
    if (results.length > 0) {
      const previous: any[] = Array.isArray(messages[at - 1]?.content) ? messages[at - 1].content : [];
      const asked = previous.filter((block) => block.type === 'tool_use').map((block) => String(block.id));
      if (message.role !== 'user') found.push(`message ${at}: tool_result blocks outside a user message`);
      if (!sameSet(results, asked))
        found.push(`message ${at}: tool_result ids [${results.join(', ')}] do not answer [${asked.join(', ')}]`);
      const firstOther = blocks.findIndex((block) => block.type !== 'tool_result');
      if (firstOther !== -1 && firstOther < results.length)
        found.push(`message ${at}: tool_result blocks must come first in the user message`);
    }
    if (uses.length > 0) {
      const next: any[] = Array.isArray(messages[at + 1]?.content) ? messages[at + 1].content : [];
      if (messages[at + 1] === undefined) return; // a prefill of the assistant's own turn is not a request to answer
      const answered = next.filter((block) => block.type === 'tool_result').map((block) => String(block.tool_use_id));
      if (!sameSet(uses, answered))
        found.push(`message ${at}: tool_use ids [${uses.join(', ')}] without tool_result blocks immediately after`);
    }
  });
  for (const id of duplicates(allUses)) found.push(`tool_use id '${id}' is not unique`);
  if (
    messages.at(-1)?.role === 'assistant' &&
    messages.at(-1).content.some?.((block: any) => block.type === 'tool_use')
  )
    found.push('the request ends with unanswered tool_use blocks');
  return found;
}

function chatViolations(messages: any[], scripted: boolean): string[] {
  const found: string[] = [];
  const callsOf = (message: any): string[] =>
    message.role === 'assistant'
      ? ((scripted ? message.toolCalls : message.tool_calls) ?? []).map((call: any) => String(call.id))
      : [];
  const idOf = (message: any): string => String(scripted ? message.toolCallId : message.tool_call_id);
  const all: string[] = [];
  messages.forEach((message, at) => {
    const calls = callsOf(message);
    all.push(...calls);
    if (calls.length > 0) {
      const answers: string[] = [];
      for (let next = at + 1; next < messages.length && messages[next].role === 'tool'; next++)
        answers.push(idOf(messages[next]));
      if (!sameSet(calls, answers))
        found.push(
          `message ${at}: an assistant message with tool_calls [${calls.join(', ')}] must be followed by tool messages responding to each (got [${answers.join(', ')}])`,
        );
    }
    if (message.role === 'tool') {
      let owner = at - 1;
      while (owner >= 0 && messages[owner].role === 'tool') owner--;
      if (owner < 0 || !callsOf(messages[owner]).includes(idOf(message)))
        found.push(`message ${at}: a tool message answers '${idOf(message)}', which no preceding tool_calls asked for`);
      if (typeof message.content !== 'string' && !Array.isArray(message.content))
        found.push(`message ${at}: a tool message without content`);
    }
  });
  for (const id of duplicates(all)) found.push(`tool call id '${id}' is not unique`);
  return found;
}

function responsesViolations(input: any[]): string[] {
  const found: string[] = [];
  const calls: string[] = [];
  const outputs: string[] = [];
  input.forEach((item, at) => {
    if (item.type === 'function_call') calls.push(String(item.call_id));
    if (item.type === 'function_call_output') {
      const id = String(item.call_id);
      if (!calls.includes(id))
        found.push(`item ${at}: function_call_output '${id}' answers no function_call before it`);
      if (typeof item.output !== 'string' && !Array.isArray(item.output))
        found.push(`item ${at}: function_call_output '${id}' has no output`);
      outputs.push(id);
    }
  });
  for (const id of calls) if (!outputs.includes(id)) found.push(`No tool output found for function call ${id}`);
  for (const id of duplicates(calls)) found.push(`function_call id '${id}' is not unique`);
  for (const id of duplicates(outputs)) found.push(`function_call_output '${id}' is sent twice`);
  return found;
}
