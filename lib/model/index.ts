export * from './model-types';
export * from './model-stepper';
export * from './memory';
export * from './base-model-client';
export * from './scripted-model-client';
export * from './anthropic';
