/** Every operation of the Filesystem toolkit, in the order tools are listed. */
export const FILESYSTEM_OPERATIONS = [
  'read',
  'list',
  'stat',
  'search',
  'write',
  'append',
  'mkdir',
  'move',
  'delete',
] as const;

/** One of {@link FILESYSTEM_OPERATIONS}. */
export type FilesystemOperation = (typeof FILESYSTEM_OPERATIONS)[number];

/** Operations that change the filesystem; refused in read-only mode. */
export const MUTATING_FILESYSTEM_OPERATIONS: readonly FilesystemOperation[] = Object.freeze([
  'write',
  'append',
  'mkdir',
  'move',
  'delete',
]);

/** True when `value` names a filesystem operation. */
export function isFilesystemOperation(value: unknown): value is FilesystemOperation {
  return typeof value === 'string' && (FILESYSTEM_OPERATIONS as readonly string[]).includes(value);
}
