export * from './json-schema';
export * from './llm-tool';
export * from './tool-descriptor';
export * from './defaults';
export * from './tool-contract-error';
export * from './check-descriptor';
export * from './compile-descriptor';
export * from './retry-delay';
