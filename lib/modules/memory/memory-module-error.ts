import { WuweError } from '../../errors/wuwe-error';

/** Codes of {@link MemoryModuleError}. */
export type MemoryModuleErrorCode = 'invalid_memory_options' | 'invalid_note' | 'invalid_query' | 'invalid_message';

/** The memory module refused its configuration, a note or a conversation message. */
export class MemoryModuleError extends WuweError<MemoryModuleErrorCode> {
  constructor(code: MemoryModuleErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}
