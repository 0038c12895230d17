import { ModelRequest, ModelResponse } from './model-types';

/** One request/response step against a model: what the runner needs from a model client. */
export interface ModelStepper {
  /** The model name, for traces and records. */
  readonly modelName: string;
  /** Sends one request; must honour `request.signal`. */
  step(request: ModelRequest): Promise<ModelResponse>;
}
