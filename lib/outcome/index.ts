export * from './json-value';
export * from './error-codes';
export * from './tool-outcome';
export * from './render-tool-message';
