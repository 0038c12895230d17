export * from './memory-module-error';
export * from './memory-schema';
export * from './sqlite-memory';
export * from './note-store';
export * from './sqlite-note-store';
export * from './memory-tools';
export * from './resolve-memory-tool-options';
export * from './memory-tool-provider';
