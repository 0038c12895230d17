import { ModelApiError } from '../model-api-error';
import { ModelStreamEvent } from '../model-stream';

/** A content block as it is being assembled from its deltas. */
interface OpenBlock {
  block: Record<string, unknown>;
  /** The JSON text of a tool block's `input`, as received so far. */
  json?: string;
  /** The position among the message's `tool_use` blocks (the neutral call index). */
  toolIndex?: number;
  /** True when the input's JSON text did not parse (its input became `{}`). */
  cut?: boolean;
}

/**
 * Assembles a streamed Messages API answer (the SDK's raw stream events of `create({ stream: true })`)
 * into the message body the non-streaming API would have returned, and turns each event into the
 * neutral deltas it carries: `text_delta` for text, `tool_call_started` and `tool_call_delta` for
 * `tool_use` blocks. Thinking blocks, signatures, citations and server tool blocks are assembled too,
 * so the turn can be sent back exactly. A block started at an index already used is a `malformed_response`.
 */
export class AnthropicStreamAssembler {
  private message: Record<string, unknown> | undefined;
  private readonly blocks: OpenBlock[] = [];
  private toolCount = 0;
  private stopped = false;

  /** Takes one raw stream event; returns the neutral deltas it carries. */
  add(raw: unknown): ModelStreamEvent[] {
    if (!isRecord(raw) || typeof raw.type !== 'string') throw malformed('a stream event has no `type`');
    switch (raw.type) {
      case 'message_start':
        if (!isRecord(raw.message)) throw malformed('`message_start` has no `message`');
        this.message = { ...raw.message };
        return [];
      case 'content_block_start':
        return this.startBlock(raw);
      case 'content_block_delta':
        return this.addDelta(raw);
      case 'content_block_stop':
        this.closeBlock(this.openBlock(raw.index));
        return [];
      case 'message_delta': {
        const message = this.started();
        if (isRecord(raw.delta)) Object.assign(message, raw.delta);
        if (isRecord(raw.usage))
          message.usage = { ...(isRecord(message.usage) ? message.usage : {}), ...withoutNulls(raw.usage) };
        return [];
      }
      case 'message_stop':
        this.stopped = true;
        return [];
      default:
        return [];
    }
  }

  /**
   * The whole message body. A stream that ended before `message_stop` was cut: `connection`
   * (retryable), since nothing of an unfinished answer may run.
   */
  finish(): Record<string, unknown> {
    if (!this.stopped || this.message === undefined)
      throw new ModelApiError('connection', {
        provider: 'anthropic',
        detail: 'the stream ended before `message_stop`: the answer is incomplete',
        retryable: true,
      });
    for (const open of this.blocks) this.closeBlock(open);
    const cut = this.blocks.find((open) => open.cut === true);
    if (cut !== undefined && this.message.stop_reason !== 'max_tokens')
      throw malformed(`the input of tool block '${String(cut.block.name)}' is not valid JSON`);
    return { ...this.message, content: this.blocks.map((open) => open.block) };
  }

  private startBlock(raw: Record<string, unknown>): ModelStreamEvent[] {
    this.started();
    if (typeof raw.index !== 'number' || !isRecord(raw.content_block) || typeof raw.content_block.type !== 'string')
      throw malformed('`content_block_start` has no `index` or `content_block`');
    // A block's index is its position in the content: a second block there would replace the first, and a
    // started call would vanish from the answer.
    if (this.blocks[raw.index] !== undefined) throw malformed(`content block ${raw.index} was started twice`);
    const block = { ...raw.content_block };
    const open: OpenBlock = { block };
    this.blocks[raw.index] = open;
    if (block.type === 'tool_use' || block.type === 'server_tool_use') open.json = '';
    if (block.type === 'text' && typeof block.text === 'string' && block.text.length > 0)
      return [{ type: 'text_delta', text: block.text }];
    if (block.type !== 'tool_use') return [];
    if (typeof block.id !== 'string' || typeof block.name !== 'string')
      throw malformed(`tool_use block ${raw.index} has no \`id\` or \`name\``);
    open.toolIndex = this.toolCount++;
    return [{ type: 'tool_call_started', index: open.toolIndex, id: block.id, name: block.name }];
  }

  private addDelta(raw: Record<string, unknown>): ModelStreamEvent[] {
    const open = this.openBlock(raw.index);
    const delta = raw.delta;
    if (!isRecord(delta)) throw malformed('`content_block_delta` has no `delta`');
    const block = open.block;
    switch (delta.type) {
      case 'text_delta':
        if (typeof delta.text !== 'string') throw malformed('a `text_delta` has no `text`');
        block.text = `${typeof block.text === 'string' ? block.text : ''}${delta.text}`;
        return [{ type: 'text_delta', text: delta.text }];
      case 'input_json_delta':
        if (typeof delta.partial_json !== 'string') throw malformed('an `input_json_delta` has no `partial_json`');
        open.json = `${open.json ?? ''}${delta.partial_json}`;
        return open.toolIndex === undefined
          ? []
          : [{ type: 'tool_call_delta', index: open.toolIndex, argumentsDelta: delta.partial_json }];
      case 'thinking_delta':
        block.thinking = `${typeof block.thinking === 'string' ? block.thinking : ''}${String(delta.thinking)}`;
        return [];
      case 'signature_delta':
        block.signature = delta.signature;
        return [];
      case 'citations_delta':
        block.citations = [...(Array.isArray(block.citations) ? block.citations : []), delta.citation];
        return [];
      default:
        return [];
    }
  }

  /**
   * Parses a tool block's input. One that does not parse becomes `{}` and is marked: allowed only in an
   * answer cut at `max_tokens` (whose calls never run), else `finish()` reports a malformed response.
   */
  private closeBlock(open: OpenBlock): void {
    if (open.json === undefined) return;
    const json = open.json;
    open.json = undefined;
    if (json.trim().length === 0) {
      open.block.input = {};
      return;
    }
    try {
      open.block.input = JSON.parse(json) as unknown;
    } catch {
      open.block.input = {};
      open.cut = true;
    }
  }

  private openBlock(index: unknown): OpenBlock {
    const open = typeof index === 'number' ? this.blocks[index] : undefined;
    if (open === undefined) throw malformed(`a stream event names content block ${String(index)}, which never started`);
    return open;
  }

  private started(): Record<string, unknown> {
    if (this.message === undefined) throw malformed('the stream did not begin with `message_start`');
    return this.message;
  }
}

function malformed(detail: string): ModelApiError {
  return new ModelApiError('malformed_response', { provider: 'anthropic', detail, retryable: false });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function withoutNulls(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== null && value !== undefined));
}
