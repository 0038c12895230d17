export * from './model-types';
export * from './model-stepper';
export * from './memory';
