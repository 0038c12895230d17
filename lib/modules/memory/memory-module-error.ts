import { WuweError } from '../../errors/wuwe-error';
import { hasErrorMarker } from '../../errors/error-marker';

/** Codes of {@link MemoryModuleError}. */
export type MemoryModuleErrorCode = 'invalid_memory_options' | 'invalid_note' | 'invalid_query' | 'invalid_message';

const MEMORY_MODULE_ERROR_MARKER = Symbol.for('wuwe.error.MemoryModuleError');

/** The memory module refused its configuration, a note or a conversation message. */
export class MemoryModuleError extends WuweError<MemoryModuleErrorCode> {
  private readonly [MEMORY_MODULE_ERROR_MARKER] = true;

  /** True when `value` is a MemoryModuleError, from this or another copy of the package. */
  static override isInstance(value: unknown): value is MemoryModuleError {
    return hasErrorMarker(value, MEMORY_MODULE_ERROR_MARKER);
  }

  constructor(code: MemoryModuleErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}
