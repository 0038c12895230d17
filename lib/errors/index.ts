export * from './wuwe-error';
