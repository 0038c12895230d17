export * from './memory';
export * from './knowledge';
export * from './execution';
