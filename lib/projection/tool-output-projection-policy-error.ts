import { WuweError } from '../errors/wuwe-error';

/** Why a projection policy was rejected. */
export type ToolOutputProjectionPolicyProblemKind = 'invalid_policy' | 'envelope' | 'estimator';

/**
 * A projection policy that cannot be used: a ceiling that is not an integer or is below the
 * minimum (`invalid_policy`), a truncation envelope that cannot fit under the ceilings
 * (`envelope`), or an estimator that misbehaved while the envelopes were measured (`estimator`).
 * Thrown at configuration time, before anything runs.
 */
export class ToolOutputProjectionPolicyError extends WuweError<'invalid_projection_policy'> {
  constructor(
    /** What kind of problem was found first. */
    readonly kind: ToolOutputProjectionPolicyProblemKind,
    /** Every problem found, one sentence each. */
    readonly problems: readonly string[],
  ) {
    super('invalid_projection_policy', `Invalid tool output projection policy: ${problems.join('; ')}`);
  }
}
