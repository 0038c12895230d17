export * from './agent-run-record';
export * from './run-store';
export * from './run-store-error';
export * from './canonical-json-error';
export { canonicalJson, canonicalArgumentsSha256, sha256Hex } from './canonical-arguments';
export { parseAgentRunRecord } from './parse-agent-run-record';
export * from './memory-run-store';
export * from './sqlite-run-store';
export * from './postgres-run-store';
