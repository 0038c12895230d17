/**
 * The Messages API's streaming form (`stream: true`) of a message body, for the local server: the
 * server-sent events the real API sends, in order (`message_start`, per content block
 * `content_block_start`, its deltas and `content_block_stop`, then `message_delta` and `message_stop`).
 * Text and tool input JSON are split into a few deltas, as the API does.
 */

/** One server-sent event: its `event:` name and its JSON `data:`. */
export interface SseEvent {
  readonly event: string;
  readonly data: unknown;
}

/** The events of a streamed answer whose whole message is `body` (the JSON form's body). */
export function messageStreamEvents(body: Record<string, any>, pieces = 3): SseEvent[] {
  const usage = body.usage ?? { input_tokens: 0, output_tokens: 0 };
  const events: SseEvent[] = [
    {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: {
          ...body,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { ...usage, output_tokens: 1 },
        },
      },
    },
  ];
  const content: any[] = Array.isArray(body.content) ? body.content : [];
  content.forEach((block, index) => {
    const delta = (data: Record<string, unknown>): void => {
      events.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: data } });
    };
    if (block.type === 'text') {
      events.push({
        event: 'content_block_start',
        data: { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
      });
      for (const text of split(block.text, pieces)) delta({ type: 'text_delta', text });
    } else if (block.type === 'tool_use' || block.type === 'server_tool_use') {
      events.push({
        event: 'content_block_start',
        data: { type: 'content_block_start', index, content_block: { ...block, input: {} } },
      });
      for (const partial of split(JSON.stringify(block.input), pieces))
        delta({ type: 'input_json_delta', partial_json: partial });
    } else if (block.type === 'thinking') {
      events.push({
        event: 'content_block_start',
        data: { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } },
      });
      for (const thinking of split(block.thinking, pieces)) delta({ type: 'thinking_delta', thinking });
      delta({ type: 'signature_delta', signature: block.signature });
    } else {
      events.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: block } });
    }
    events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
  });
  events.push({
    event: 'message_delta',
    data: {
      type: 'message_delta',
      delta: { stop_reason: body.stop_reason, stop_sequence: body.stop_sequence ?? null },
      usage: { output_tokens: usage.output_tokens },
    },
  });
  events.push({ event: 'message_stop', data: { type: 'message_stop' } });
  return events;
}

/** The wire form of one event. */
export function encodeSse(event: SseEvent): string {
  return `event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

function split(text: string, pieces: number): string[] {
  if (text.length === 0) return [];
  const size = Math.ceil(text.length / pieces);
  const parts: string[] = [];
  for (let start = 0; start < text.length; start += size) parts.push(text.slice(start, start + size));
  return parts;
}
