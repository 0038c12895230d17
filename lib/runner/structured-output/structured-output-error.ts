import { WuweError } from '../../errors/wuwe-error';
import { hasErrorMarker } from '../../errors/error-marker';

/** Codes of {@link StructuredOutputError}. */
export type StructuredOutputErrorCode =
  /** Every final answer the model gave, repairs included, failed the output schema. */
  | 'output_invalid'
  /**
   * The model kept ending its turn without giving its final answer (through the final-answer tool; in native mode, with
   * an empty text).
   */
  | 'output_missing';

const STRUCTURED_OUTPUT_ERROR_MARKER = Symbol.for('wuwe.error.StructuredOutputError');

/**
 * A run with `output` that ended without a valid final answer after `maxRepairs` repairs. `issues`
 * says what was wrong with the last answer, `lastAnswer` is that answer as the model sent it.
 */
export class StructuredOutputError extends WuweError<StructuredOutputErrorCode> {
  private readonly [STRUCTURED_OUTPUT_ERROR_MARKER] = true;

  /** True when `value` is a StructuredOutputError, from this or another copy of the package. */
  static override isInstance(value: unknown): value is StructuredOutputError {
    return hasErrorMarker(value, STRUCTURED_OUTPUT_ERROR_MARKER);
  }

  constructor(
    code: StructuredOutputErrorCode,
    message: string,
    /** What was wrong with the last answer. */
    readonly issues: string,
    /**
     * The last answer as the model sent it (the tool's arguments; in native mode, its text); absent when it gave none.
     */
    readonly lastAnswer?: unknown,
  ) {
    super(code, message);
  }
}
