export * from './filesystem';
export * from './process';
export * from './memory';
export * from './knowledge';
export * from './execution';
export * from './audited-toolkit';
