import { ScriptedReply } from './openai-api-server';

/** A scripted tool call: its id, name, and argument text in the pieces it is streamed in. */
export interface ScriptedCall {
  readonly id: string;
  readonly name: string;
  readonly pieces: readonly string[];
}

/** What a scripted answer says, for either API. */
export interface ScriptedAnswer {
  readonly text?: readonly string[];
  readonly refusal?: readonly string[];
  readonly calls?: readonly ScriptedCall[];
  /** Chat Completions `finish_reason`, default `tool_calls` with calls, else `stop`. */
  readonly finish?: string;
  /** Responses status, default `completed`; with `incomplete`, `incompleteReason` says why. */
  readonly status?: 'completed' | 'incomplete';
  readonly incompleteReason?: string;
  /** A reasoning item before the answer (Responses). */
  readonly reasoning?: { readonly id: string; readonly encrypted: string };
  readonly usage?: { readonly input: number; readonly output: number };
  readonly model?: string;
}

const join = (pieces: readonly string[] | undefined): string => (pieces ?? []).join('');

/** A Chat Completions response body. */
export function chatCompletion(answer: ScriptedAnswer): Record<string, unknown> {
  const calls = answer.calls ?? [];
  return {
    id: 'chatcmpl_test',
    object: 'chat.completion',
    created: 1,
    model: answer.model ?? 'gpt-test',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: answer.text === undefined ? null : join(answer.text),
          refusal: answer.refusal === undefined ? null : join(answer.refusal),
          ...(calls.length > 0
            ? {
                tool_calls: calls.map((call) => ({
                  id: call.id,
                  type: 'function',
                  function: { name: call.name, arguments: join(call.pieces) },
                })),
              }
            : {}),
        },
        finish_reason: answer.finish ?? (calls.length > 0 ? 'tool_calls' : 'stop'),
      },
    ],
    usage: { prompt_tokens: answer.usage?.input ?? 11, completion_tokens: answer.usage?.output ?? 7, total_tokens: 18 },
  };
}

/** A 200 JSON reply with {@link chatCompletion}. */
export function chatReply(answer: ScriptedAnswer): ScriptedReply {
  return { kind: 'json', body: chatCompletion(answer) };
}

/**
 * The chunks of a streamed Chat Completion: text pieces, then each call's first chunk (id, name, no
 * arguments), then the argument pieces of all calls interleaved round-robin, the finish chunk, and a
 * usage chunk with no choices.
 */
export function chatChunks(answer: ScriptedAnswer): unknown[] {
  const calls = answer.calls ?? [];
  const chunk = (delta: Record<string, unknown>, finish: string | null = null): unknown => ({
    id: 'chatcmpl_test',
    object: 'chat.completion.chunk',
    created: 1,
    model: answer.model ?? 'gpt-test',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const chunks: unknown[] = [chunk({ role: 'assistant', content: '' })];
  for (const piece of answer.text ?? []) chunks.push(chunk({ content: piece }));
  for (const piece of answer.refusal ?? []) chunks.push(chunk({ refusal: piece }));
  calls.forEach((call, index) =>
    chunks.push(
      chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }),
    ),
  );
  const longest = Math.max(0, ...calls.map((call) => call.pieces.length));
  for (let round = 0; round < longest; round++) {
    calls.forEach((call, index) => {
      if (round < call.pieces.length)
        chunks.push(chunk({ tool_calls: [{ index, function: { arguments: call.pieces[round] } }] }));
    });
  }
  chunks.push(chunk({}, answer.finish ?? (calls.length > 0 ? 'tool_calls' : 'stop')));
  chunks.push({
    id: 'chatcmpl_test',
    object: 'chat.completion.chunk',
    created: 1,
    model: answer.model ?? 'gpt-test',
    choices: [],
    usage: { prompt_tokens: answer.usage?.input ?? 11, completion_tokens: answer.usage?.output ?? 7, total_tokens: 18 },
  });
  return chunks;
}

/** A 200 event-stream reply with {@link chatChunks}, ending with `[DONE]`. */
export function chatStreamReply(answer: ScriptedAnswer, gapMs?: number): ScriptedReply {
  return { kind: 'sse', events: chatChunks(answer), done: true, ...(gapMs !== undefined ? { gapMs } : {}) };
}

/** The output items of a Responses API answer. */
function outputItems(answer: ScriptedAnswer): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [];
  if (answer.reasoning !== undefined) {
    items.push({
      type: 'reasoning',
      id: answer.reasoning.id,
      summary: [],
      encrypted_content: answer.reasoning.encrypted,
    });
  }
  if (answer.text !== undefined || answer.refusal !== undefined) {
    const content = [
      ...(answer.text !== undefined ? [{ type: 'output_text', text: join(answer.text), annotations: [] }] : []),
      ...(answer.refusal !== undefined ? [{ type: 'refusal', refusal: join(answer.refusal) }] : []),
    ];
    items.push({ type: 'message', id: 'msg_test', role: 'assistant', status: 'completed', content });
  }
  for (const [index, call] of (answer.calls ?? []).entries()) {
    items.push({
      type: 'function_call',
      id: `fc_test_${index}`,
      call_id: call.id,
      name: call.name,
      arguments: join(call.pieces),
      status: 'completed',
    });
  }
  return items;
}

/** A Responses API `response` object. */
export function responsesBody(answer: ScriptedAnswer): Record<string, unknown> {
  const status = answer.status ?? 'completed';
  return {
    id: 'resp_test',
    object: 'response',
    created_at: 1,
    model: answer.model ?? 'gpt-test',
    status,
    incomplete_details: status === 'incomplete' ? { reason: answer.incompleteReason ?? 'max_output_tokens' } : null,
    error: null,
    output: outputItems(answer),
    usage: { input_tokens: answer.usage?.input ?? 11, output_tokens: answer.usage?.output ?? 7, total_tokens: 18 },
  };
}

/** A 200 JSON reply with {@link responsesBody}. */
export function responsesReply(answer: ScriptedAnswer): ScriptedReply {
  return { kind: 'json', body: responsesBody(answer) };
}

/** The named events of a streamed Responses API answer, ending with `response.completed` (or `.incomplete`). */
export function responsesEvents(answer: ScriptedAnswer): unknown[] {
  const body = responsesBody(answer);
  const events: unknown[] = [{ type: 'response.created', response: { ...body, status: 'in_progress', output: [] } }];
  (body.output as Record<string, unknown>[]).forEach((item, outputIndex) => {
    if (item.type === 'function_call') {
      const call = (answer.calls ?? []).find((candidate) => candidate.id === item.call_id) as ScriptedCall;
      events.push({
        type: 'response.output_item.added',
        output_index: outputIndex,
        item: { ...item, arguments: '', status: 'in_progress' },
      });
      for (const piece of call.pieces)
        events.push({
          type: 'response.function_call_arguments.delta',
          output_index: outputIndex,
          item_id: item.id,
          delta: piece,
        });
    } else {
      events.push({ type: 'response.output_item.added', output_index: outputIndex, item });
      if (item.type === 'message') {
        for (const piece of answer.text ?? [])
          events.push({
            type: 'response.output_text.delta',
            output_index: outputIndex,
            content_index: 0,
            delta: piece,
          });
        for (const piece of answer.refusal ?? [])
          events.push({ type: 'response.refusal.delta', output_index: outputIndex, content_index: 0, delta: piece });
      }
    }
    events.push({ type: 'response.output_item.done', output_index: outputIndex, item });
  });
  events.push({ type: body.status === 'incomplete' ? 'response.incomplete' : 'response.completed', response: body });
  return events;
}

/** A 200 event-stream reply with {@link responsesEvents}. */
export function responsesStreamReply(answer: ScriptedAnswer, gapMs?: number): ScriptedReply {
  return { kind: 'sse', events: responsesEvents(answer), named: true, ...(gapMs !== undefined ? { gapMs } : {}) };
}
