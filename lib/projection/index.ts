export type { TextTokenEstimator } from './text-token-estimator';
export { FallbackTextTokenEstimator, fallbackTextTokenEstimator } from './fallback-text-token-estimator';
export { DEFAULT_TOOL_OUTPUT_PROJECTION } from './default-tool-output-projection';
export type {
  ToolOutputProjection,
  ToolOutputProjectionFailure,
  ToolOutputProjectionFailureKind,
  ToolOutputProjectionOptions,
  ToolOutputProjectionReport,
  ToolOutputProjectionResult,
  ToolOutputProjectionTrigger,
} from './tool-output-projection-result';
export { ToolOutputProjectionError } from './tool-output-projection-error';
export { ToolOutputProjectionPolicyError } from './tool-output-projection-policy-error';
export type { ToolOutputProjectionPolicyProblemKind } from './tool-output-projection-policy-error';
export { checkToolOutputProjectionPolicy } from './check-tool-output-projection-policy';
export { effectiveToolOutputProjection } from './effective-tool-output-projection';
export {
  MAX_ESTIMATOR_CALLS_PER_PROJECTION,
  projectToolOutputForModel,
  tryProjectToolOutputForModel,
} from './project-tool-output-for-model';
export { checkToolImagePolicy, DEFAULT_TOOL_IMAGE_POLICY } from './tool-image-policy';
export type { ToolImagePolicy } from './tool-image-policy';
export { projectToolImages } from './project-tool-images';
export type { ToolImageOmission, ToolImageProjection, ToolImageProjectionReport } from './project-tool-images';
