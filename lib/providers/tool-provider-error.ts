import { WuweError } from '../errors/wuwe-error';
import { hasErrorMarker } from '../errors/error-marker';

/** Codes of {@link ToolProviderError}. */
export type ToolProviderErrorCode = 'duplicate_tool' | 'invalid_provider' | 'unknown_tool';

const TOOL_PROVIDER_ERROR_MARKER = Symbol.for('wuwe.error.ToolProviderError');

/** A provider set that cannot work: two providers offer one name, or a provider has no invoke form. */
export class ToolProviderError extends WuweError<ToolProviderErrorCode> {
  private readonly [TOOL_PROVIDER_ERROR_MARKER] = true;

  /** True when `value` is a ToolProviderError, from this or another copy of the package. */
  static override isInstance(value: unknown): value is ToolProviderError {
    return hasErrorMarker(value, TOOL_PROVIDER_ERROR_MARKER);
  }

  constructor(code: ToolProviderErrorCode, message: string) {
    super(code, message);
  }
}
