import { ModelRequest, ModelResponse, ModelResponseFormat, ModelToolChoice } from './model-types';

/** One request/response step against a model: what the runner needs from a model client. */
export interface ModelStepper {
  /** The model name, for traces and records. */
  readonly modelName: string;
  /** Sends one request; must honour `request.signal`. */
  step(request: ModelRequest): Promise<ModelResponse>;
  /**
   * Whether the client can send `format` as `request.responseFormat` (its provider's native structured
   * output). A client without this method, or answering `false`, gets a final-answer tool instead.
   */
  supportsResponseFormat?(format: ModelResponseFormat): boolean;
  /**
   * Whether the client can send `choice` as `request.toolChoice`. A run whose `toolChoice` (or `prepareStep`)
   * asks for one the client cannot send (no such method, or `false`) is refused (`invalid_run_options`).
   */
  supportsToolChoice?(choice: ModelToolChoice): boolean;
}
