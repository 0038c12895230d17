import { ModelRequest, ModelResponse, ModelResponseFormat } from './model-types';

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
}
