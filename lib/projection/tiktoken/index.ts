/**
 * Entry point `wuwe/tiktoken`: an exact token estimator backed by the optional peer dependency
 * `js-tiktoken`. The core entry never loads it.
 */
export { TiktokenTokenEstimator } from './tiktoken-token-estimator';
export type { TiktokenEncodingName } from './tiktoken-token-estimator';
