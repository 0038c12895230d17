import { ModelRequest, ModelResponse } from './model-types';
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- referenced from TSDoc
import type { ModelApiError } from './model-api-error';

/**
 * One event of a streamed model step, in wuwe's provider-neutral form.
 *
 * A stream is a sequence of deltas followed by exactly one `response` event that carries the whole
 * {@link ModelResponse}, exactly as `step()` would have returned it. The runner acts on that final
 * response only: partial tool-call arguments are shown to listeners and never run.
 *
 * - `text_delta`: a piece of the assistant's text.
 * - `tool_call_started`: the model began a tool call; `index` is its position in the response.
 * - `tool_call_delta`: a piece of that call's JSON argument text (not parsed, may be incomplete).
 * - `response`: the complete step; always last.
 */
export type ModelStreamEvent =
  | { readonly type: 'text_delta'; readonly text: string }
  | { readonly type: 'tool_call_started'; readonly index: number; readonly id: string; readonly name: string }
  | { readonly type: 'tool_call_delta'; readonly index: number; readonly argumentsDelta: string }
  | { readonly type: 'response'; readonly response: ModelResponse };

/**
 * A model client that can stream a step. `streamStep` must honour `request.signal` (an abort ends the
 * iteration with a rejection) and must end with one `response` event; a client whose stream ends
 * without one reports a `malformed_response` {@link ModelApiError}.
 */
export interface StreamingModelStepper {
  /** Streams one step: deltas, then exactly one `response` event; must honour `request.signal`. */
  streamStep(request: ModelRequest): AsyncIterable<ModelStreamEvent>;
}

/** True when `model` implements {@link StreamingModelStepper}. */
export function canStreamSteps(model: object): model is StreamingModelStepper {
  return typeof (model as Partial<StreamingModelStepper>).streamStep === 'function';
}
