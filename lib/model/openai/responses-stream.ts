import { ModelStreamEvent } from '../model-stream';
import { ModelResponse } from '../model-types';
import { isRecord } from './json-shape';
import { malformed } from './map-api-error';
import { failedResponse, fromResponsesResponse } from './responses-response';

/**
 * Reads the events of a streamed Responses API answer into {@link ModelStreamEvent}s and, at the end,
 * the whole {@link ModelResponse}.
 *
 * `response.output_text.delta` and `response.refusal.delta` are `text_delta`s; a `function_call` output item
 * being added is `tool_call_started` (numbered in order of the calls), each
 * `response.function_call_arguments.delta` of it a `tool_call_delta`. The response of
 * `response.completed` or `response.incomplete` is mapped as a whole by {@link fromResponsesResponse};
 * `response.failed` and `error` events are failures.
 *
 * The calls that run are those of the final response, so the streamed calls must be its calls: the
 * calls started are, in order, the first of its calls (a call it holds that was not streamed is started
 * then, its whole argument text as one delta); a started call it does not hold, or holds under another
 * position, is a `malformed_response`.
 */
export class ResponsesStreamReader {
  private final: ModelResponse | undefined;
  private readonly callPositions = new Map<number, number>();
  /** The ids of the calls started, by position. */
  private readonly startedIds: string[] = [];

  constructor(private readonly strictTools: ReadonlySet<string>) {}

  /**
   * The events of one server-sent event.
   * @throws {@link ModelApiError} for a failed response or an error event; `malformed_response` for an
   * event that is not one.
   */
  read(event: unknown): ModelStreamEvent[] {
    if (!isRecord(event) || typeof event.type !== 'string') throw malformed('a stream event has no `type`');
    switch (event.type) {
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        return typeof event.delta === 'string' && event.delta.length > 0
          ? [{ type: 'text_delta', text: event.delta }]
          : [];
      case 'response.output_item.added': {
        const item = event.item;
        if (!isRecord(item) || item.type !== 'function_call' || typeof event.output_index !== 'number') return [];
        if (typeof item.call_id !== 'string' || typeof item.name !== 'string')
          throw malformed('a streamed function_call item has no `call_id` or `name`');
        const position = this.startedIds.length;
        this.startedIds.push(item.call_id);
        this.callPositions.set(event.output_index, position);
        const events: ModelStreamEvent[] = [
          { type: 'tool_call_started', index: position, id: item.call_id, name: item.name },
        ];
        if (typeof item.arguments === 'string' && item.arguments.length > 0) {
          events.push({ type: 'tool_call_delta', index: position, argumentsDelta: item.arguments });
        }
        return events;
      }
      case 'response.function_call_arguments.delta': {
        const position =
          typeof event.output_index === 'number' ? this.callPositions.get(event.output_index) : undefined;
        if (position === undefined) throw malformed('arguments arrived for a function call that was never started');
        return typeof event.delta === 'string' && event.delta.length > 0
          ? [{ type: 'tool_call_delta', index: position, argumentsDelta: event.delta }]
          : [];
      }
      case 'response.completed':
      case 'response.incomplete':
        this.final = fromResponsesResponse(event.response, this.strictTools);
        return this.unstreamedCalls(this.final);
      case 'response.failed':
        throw failedResponse(isRecord(event.response) ? event.response : {});
      case 'error':
        throw failedResponse(event);
      default:
        return [];
    }
  }

  /**
   * The events of the final response's calls that were not streamed.
   * @throws {@link ModelApiError} `malformed_response` when a streamed call is not the response's call at its position.
   */
  private unstreamedCalls(response: ModelResponse): ModelStreamEvent[] {
    this.startedIds.forEach((id, position) => {
      if (response.toolCalls[position]?.id !== id)
        throw malformed(`the streamed function call '${id}' is not call ${position} of the completed response`);
    });
    return response.toolCalls.slice(this.startedIds.length).flatMap((call, offset): ModelStreamEvent[] => {
      const index = this.startedIds.length + offset;
      const text = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
      return [
        { type: 'tool_call_started', index, id: call.id, name: call.name },
        ...(text.length > 0 ? [{ type: 'tool_call_delta' as const, index, argumentsDelta: text }] : []),
      ];
    });
  }

  /**
   * The whole response, once the stream has ended.
   * @throws {@link ModelApiError} `malformed_response` when the stream ended without a final response.
   */
  finish(): ModelResponse {
    if (this.final === undefined) throw malformed('the stream ended before the response was completed');
    return this.final;
  }
}
