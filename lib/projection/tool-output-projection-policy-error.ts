import { WuweError } from '../errors/wuwe-error';
import { hasErrorMarker } from '../errors/error-marker';

/** Why a projection policy was rejected. */
export type ToolOutputProjectionPolicyProblemKind = 'invalid_policy' | 'envelope' | 'estimator';

const TOOL_OUTPUT_PROJECTION_POLICY_ERROR_MARKER = Symbol.for('wuwe.error.ToolOutputProjectionPolicyError');

/**
 * A projection policy that cannot be used: a ceiling that is not an integer or is below the
 * minimum (`invalid_policy`), a truncation envelope that cannot fit under the ceilings
 * (`envelope`), or an estimator that misbehaved while the envelopes were measured (`estimator`).
 * Thrown at configuration time, before anything runs.
 */
export class ToolOutputProjectionPolicyError extends WuweError<'invalid_projection_policy'> {
  private readonly [TOOL_OUTPUT_PROJECTION_POLICY_ERROR_MARKER] = true;

  /** True when `value` is a ToolOutputProjectionPolicyError, from this or another copy of the package. */
  static override isInstance(value: unknown): value is ToolOutputProjectionPolicyError {
    return hasErrorMarker(value, TOOL_OUTPUT_PROJECTION_POLICY_ERROR_MARKER);
  }

  constructor(
    /** What kind of problem was found first. */
    readonly kind: ToolOutputProjectionPolicyProblemKind,
    /** Every problem found, one sentence each. */
    readonly problems: readonly string[],
  ) {
    super('invalid_projection_policy', `Invalid tool output projection policy: ${problems.join('; ')}`);
  }
}
