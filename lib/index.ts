/**
 * wuwe: typed LLM tools for TypeScript.
 *
 * Import `reflect-metadata` once at the entry of your program before defining tool classes.
 * @packageDocumentation
 */
export * from './errors';
export * from './outcome';
export * from './contract';
export * from './validation';
export * from './reflect';
export * from './tools';
export * from './providers';
export * from './projection';
export * from './model';
export * from './runner';
export * from './durable';
export * from './modules';
