import { WuweError } from '../errors/wuwe-error';
import { hasErrorMarker } from '../errors/error-marker';

/** Codes of {@link ModelClientOptionsError}. */
export type ModelClientOptionsErrorCode = 'invalid_model_client_options';

const MODEL_CLIENT_OPTIONS_ERROR_MARKER = Symbol.for('wuwe.error.ModelClientOptionsError');

/** Options of a model client that cannot work, found when the client is constructed. Lists every problem. */
export class ModelClientOptionsError extends WuweError<ModelClientOptionsErrorCode> {
  private readonly [MODEL_CLIENT_OPTIONS_ERROR_MARKER] = true;

  /** True when `value` is a ModelClientOptionsError, from this or another copy of the package. */
  static override isInstance(value: unknown): value is ModelClientOptionsError {
    return hasErrorMarker(value, MODEL_CLIENT_OPTIONS_ERROR_MARKER);
  }

  constructor(
    readonly clientName: string,
    readonly problems: readonly string[],
  ) {
    super('invalid_model_client_options', `Invalid ${clientName} options: ${problems.join('; ')}`);
  }
}
