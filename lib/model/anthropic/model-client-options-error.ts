import { WuweError } from '../../errors/wuwe-error';

/** Codes of {@link ModelClientOptionsError}. */
export type ModelClientOptionsErrorCode = 'invalid_model_client_options';

/** Options of a model client that cannot work, found when the client is constructed. Lists every problem. */
export class ModelClientOptionsError extends WuweError<ModelClientOptionsErrorCode> {
  constructor(
    readonly clientName: string,
    readonly problems: readonly string[],
  ) {
    super('invalid_model_client_options', `Invalid ${clientName} options: ${problems.join('; ')}`);
  }
}
