/**
 * `wuwe/projection`: how a tool outcome is cut to the model's budget: the output projection (bytes and
 * tokens, the truncation report), the token estimators, and the image policy.
 * @packageDocumentation
 */
export { FallbackTextTokenEstimator, fallbackTextTokenEstimator } from './fallback-text-token-estimator';
export { DEFAULT_TOOL_OUTPUT_PROJECTION } from './default-tool-output-projection';
export { ToolOutputProjectionError } from './tool-output-projection-error';
export { ToolOutputProjectionPolicyError } from './tool-output-projection-policy-error';
export type { ToolOutputProjectionPolicyProblemKind } from './tool-output-projection-policy-error';
export { checkToolOutputProjectionPolicy } from './check-tool-output-projection-policy';
export { effectiveToolOutputProjection } from './effective-tool-output-projection';
export { projectToolOutputForModel, tryProjectToolOutputForModel } from './project-tool-output-for-model';
export { checkToolImagePolicy, DEFAULT_TOOL_IMAGE_POLICY } from './tool-image-policy';
export type { ToolImagePolicy } from './tool-image-policy';
export { projectToolImages } from './project-tool-images';
export type { ToolImageOmission, ToolImageProjection, ToolImageProjectionReport } from './project-tool-images';
export type { TextTokenEstimator } from './text-token-estimator';
export type {
  ToolOutputProjection,
  ToolOutputProjectionFailure,
  ToolOutputProjectionFailureKind,
  ToolOutputProjectionOptions,
  ToolOutputProjectionReport,
  ToolOutputProjectionResult,
  ToolOutputProjectionTrigger,
} from './tool-output-projection-result';
