import { MIN_PROJECTION_BYTES, MIN_PROJECTION_TOKENS } from '../contract/check-descriptor';
import { ToolOutputProjectionPolicy } from '../contract/tool-descriptor';
import { projectionPolicyProblems } from './check-tool-output-projection-policy';
import { ToolOutputProjectionPolicyError } from './tool-output-projection-policy-error';

/**
 * The ceilings that apply to one tool: field by field, the smaller of the run's policy and the
 * tool's `modelOutputProjection`. A contract tightens the run's policy, never widens it: a
 * descriptor ceiling above the run's is ignored, a missing one inherits the run's.
 *
 * Throws a {@link ToolOutputProjectionPolicyError} (`invalid_policy`) when the run policy or a
 * descriptor ceiling that is present is not an integer or is below 256 bytes / 128 tokens.
 * Returns a frozen policy.
 */
export function effectiveToolOutputProjection(
  runPolicy: ToolOutputProjectionPolicy,
  descriptorProjection?: Partial<ToolOutputProjectionPolicy>,
): ToolOutputProjectionPolicy {
  const problems = projectionPolicyProblems(runPolicy).map((problem) => `run policy: ${problem}`);
  if (descriptorProjection !== undefined) {
    const filled = {
      maxBytes: descriptorProjection?.maxBytes ?? MIN_PROJECTION_BYTES,
      maxTokens: descriptorProjection?.maxTokens ?? MIN_PROJECTION_TOKENS,
    };
    problems.push(...projectionPolicyProblems(filled).map((problem) => `modelOutputProjection: ${problem}`));
  }
  if (problems.length > 0) throw new ToolOutputProjectionPolicyError('invalid_policy', problems);
  return Object.freeze({
    maxBytes: Math.min(runPolicy.maxBytes, descriptorProjection?.maxBytes ?? runPolicy.maxBytes),
    maxTokens: Math.min(runPolicy.maxTokens, descriptorProjection?.maxTokens ?? runPolicy.maxTokens),
  });
}
