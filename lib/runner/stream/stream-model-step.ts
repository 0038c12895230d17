import { ModelApiError } from '../../model/model-api-error';
import { canStreamSteps, ModelStreamEvent } from '../../model/model-stream';
import { ModelStepper } from '../../model/model-stepper';
import { ModelRequest, ModelResponse } from '../../model/model-types';

/**
 * One model step of a streamed run. A model with `streamStep` streams it: every delta goes to
 * `onEvent` as it arrives (a promise `onEvent` returns is awaited before the next one is read: the
 * stream's backpressure) and the step's value is the stream's final `response` (a stream that ends
 * without one is a `malformed_response` {@link ModelApiError}). Any other model is asked with
 * `step()`, and its answer is reported as if streamed: its text as one delta, then each tool call
 * started with its whole argument text as one delta.
 */
export async function streamModelStep(
  model: ModelStepper,
  request: ModelRequest,
  onEvent: (event: ModelStreamEvent) => Promise<void> | undefined,
): Promise<ModelResponse> {
  if (!canStreamSteps(model)) {
    const response = await model.step(request);
    for (const event of synthesizedEvents(response)) {
      const waiting = onEvent(event);
      if (waiting !== undefined) await waiting;
    }
    return response;
  }
  for await (const event of model.streamStep(request)) {
    const waiting = onEvent(event);
    if (waiting !== undefined) await waiting;
    if (event.type === 'response') return event.response;
  }
  throw new ModelApiError('malformed_response', {
    provider: model.modelName,
    detail: 'the model stream ended without its final response',
    retryable: true,
  });
}

/** The events a streaming client would have sent for `response`. */
export function synthesizedEvents(response: ModelResponse): ModelStreamEvent[] {
  const events: ModelStreamEvent[] = [];
  if (response.text.length > 0) events.push({ type: 'text_delta', text: response.text });
  response.toolCalls.forEach((call, index) => {
    events.push({ type: 'tool_call_started', index, id: call.id, name: call.name });
    const text = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
    events.push({ type: 'tool_call_delta', index, argumentsDelta: text });
  });
  events.push({ type: 'response', response });
  return events;
}
