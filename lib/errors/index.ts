export * from './wuwe-error';
export * from './optional-dependency';
