export * from './filesystem-error';
export * from './filesystem-operations';
export * from './filesystem-audit';
export * from './filesystem-policy';
export * from './filesystem-tool-specs';
export * from './filesystem-toolkit';
export { splitRelativePath, isInsideRoot, MAX_PATH_BYTES, MAX_PATH_COMPONENT_BYTES } from './path-rules';
export type { FilesystemEntryType } from './entry-type';
