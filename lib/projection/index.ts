export * from './text-token-estimator';
export * from './fallback-text-token-estimator';
export * from './default-tool-output-projection';
export * from './tool-output-projection-result';
export * from './tool-output-projection-error';
export * from './tool-output-projection-policy-error';
export { checkToolOutputProjectionPolicy } from './check-tool-output-projection-policy';
export * from './effective-tool-output-projection';
export {
  MAX_ESTIMATOR_CALLS_PER_PROJECTION,
  projectToolOutputForModel,
  tryProjectToolOutputForModel,
} from './project-tool-output-for-model';
