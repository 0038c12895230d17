export * from './validation-issue';
export * from './argument-limits';
export * from './guard-json-value';
export * from './schema-validator';
export * from './decode-arguments';
export * from './linear-reg-exp';
