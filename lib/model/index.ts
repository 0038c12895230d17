export * from './model-types';
