import { WuweError } from '../errors/wuwe-error';

/** Codes of {@link ToolProviderError}. */
export type ToolProviderErrorCode = 'duplicate_tool' | 'invalid_provider' | 'unknown_tool';

/** A provider set that cannot work: two providers offer one name, or a provider has no invoke form. */
export class ToolProviderError extends WuweError<ToolProviderErrorCode> {
  constructor(code: ToolProviderErrorCode, message: string) {
    super(code, message);
  }
}
