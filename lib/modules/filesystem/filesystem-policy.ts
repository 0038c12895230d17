import { realpathSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { ConfinedRoot } from './confined-root';
import { FilesystemAuditSink } from './filesystem-audit';
import { FilesystemError } from './filesystem-error';
import { FILESYSTEM_OPERATIONS, FilesystemOperation, isFilesystemOperation } from './filesystem-operations';

/** What the approval hook is asked about. */
export interface FilesystemApprovalRequest {
  readonly operation: FilesystemOperation;
  readonly toolName: string;
  /** The path as the caller gave it. */
  readonly path: string;
  /** The second path of a `move`. */
  readonly target?: string;
  /** The validated arguments of the call. */
  readonly arguments: Readonly<Record<string, unknown>>;
}

/**
 * Called before every destructive operation (`delete`, and a `move` that replaces an existing
 * target), in addition to the runner's approval of the descriptor's `approval` mode. Return `true`
 * to let it run; `false`, a rejection or a throw refuses it (`approval_denied`).
 */
export type FilesystemApprovalHook = (request: FilesystemApprovalRequest) => boolean | Promise<boolean>;

/** What users write to configure a {@link FilesystemToolkit}. */
export interface FilesystemPolicyOptions {
  /** Directory every path is confined to. Resolved with `realpath` once, at construction. */
  readonly root: string;
  /** Refuse every mutating operation (write, append, mkdir, move, delete). @default false */
  readonly readOnly?: boolean;
  /** Operations offered and allowed. @default every operation in {@link FILESYSTEM_OPERATIONS} */
  readonly operations?: readonly FilesystemOperation[];
  /** Most bytes one `read` returns; a longer range is cut to this many. @default 1048576 (1 MiB) */
  readonly maxReadBytes?: number;
  /** Most bytes one `write` or `append` accepts; more is refused (`too_large`). @default 1048576 (1 MiB) */
  readonly maxWriteBytes?: number;
  /** Most entries one `list` returns. @default 1000 */
  readonly maxListEntries?: number;
  /** Most matches one `search` returns. @default 200 */
  readonly maxSearchResults?: number;
  /** Most directory entries one `search` visits before it stops. @default 10000 */
  readonly maxSearchVisitedEntries?: number;
  /**
   * Accept `\` as an ordinary character of a file name (POSIX allows it). By default a path with a
   * backslash is refused (`invalid_path`), so `..\..\x` never means a path outside on a host that
   * reads it the Windows way. Drive-letter forms (`C:`) are refused either way. @default false
   */
  readonly allowBackslashInNames?: boolean;
  /** Asked before destructive operations. @default undefined (only the descriptor's approval applies) */
  readonly approve?: FilesystemApprovalHook;
  /** Receives every audit entry. @default undefined (entries go to the toolkit's in-memory `auditLog`) */
  readonly audit?: FilesystemAuditSink;
}

/** A validated, frozen policy with every default filled and the root resolved. */
export interface ResolvedFilesystemPolicy {
  /** Real path of the root (no symbolic links). */
  readonly root: string;
  /** The root as recorded at construction (real path, device, inode): every call starts from that very directory. */
  readonly confinedRoot: ConfinedRoot;
  readonly readOnly: boolean;
  readonly operations: readonly FilesystemOperation[];
  readonly maxReadBytes: number;
  readonly maxWriteBytes: number;
  readonly maxListEntries: number;
  readonly maxSearchResults: number;
  readonly maxSearchVisitedEntries: number;
  readonly allowBackslashInNames: boolean;
  readonly approve?: FilesystemApprovalHook;
  readonly audit?: FilesystemAuditSink;
}

/** Defaults of {@link FilesystemPolicyOptions}. */
export const DEFAULT_FILESYSTEM_LIMITS = Object.freeze({
  maxReadBytes: 1_048_576,
  maxWriteBytes: 1_048_576,
  maxListEntries: 1000,
  maxSearchResults: 200,
  maxSearchVisitedEntries: 10_000,
});

/**
 * Validates options, fills defaults, resolves the root with `realpath` and returns a frozen policy.
 * Throws {@link FilesystemError} `invalid_root` when the root is missing or not a directory, and
 * `invalid_policy` listing every other problem.
 */
export function compileFilesystemPolicy(options: FilesystemPolicyOptions): ResolvedFilesystemPolicy {
  const problems: string[] = [];
  const limits: Record<keyof typeof DEFAULT_FILESYSTEM_LIMITS, number> = { ...DEFAULT_FILESYSTEM_LIMITS };
  for (const key of Object.keys(limits) as (keyof typeof limits)[]) {
    const value = options[key];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 1)
      problems.push(`${key} must be a positive integer, got ${String(value)}`);
    else limits[key] = value;
  }
  const operations = options.operations ?? FILESYSTEM_OPERATIONS;
  if (!Array.isArray(operations)) problems.push('operations must be an array');
  else
    for (const operation of operations)
      if (!isFilesystemOperation(operation)) problems.push(`operations has unknown operation '${String(operation)}'`);
  if (options.readOnly !== undefined && typeof options.readOnly !== 'boolean')
    problems.push('readOnly must be a boolean');
  if (options.allowBackslashInNames !== undefined && typeof options.allowBackslashInNames !== 'boolean')
    problems.push('allowBackslashInNames must be a boolean');
  if (options.approve !== undefined && typeof options.approve !== 'function')
    problems.push('approve must be a function');
  if (options.audit !== undefined && typeof options.audit !== 'function') problems.push('audit must be a function');
  if (problems.length > 0)
    throw new FilesystemError('invalid_policy', `Invalid filesystem policy: ${problems.join('; ')}.`);
  const confinedRoot = recordFilesystemRoot(options.root);
  return Object.freeze({
    root: confinedRoot.path,
    confinedRoot,
    readOnly: options.readOnly ?? false,
    operations: Object.freeze(FILESYSTEM_OPERATIONS.filter((operation) => operations.includes(operation))),
    ...limits,
    allowBackslashInNames: options.allowBackslashInNames ?? false,
    ...(options.approve === undefined ? {} : { approve: options.approve }),
    ...(options.audit === undefined ? {} : { audit: options.audit }),
  });
}

/**
 * {@link resolveFilesystemRoot}, with the device and inode of the directory there now: the root a
 * toolkit keeps acting on. Throws `invalid_root` like it.
 */
export function recordFilesystemRoot(root: unknown): ConfinedRoot {
  const real = resolveFilesystemRoot(root);
  const stats = statSync(real, { bigint: true });
  return Object.freeze({ path: real, dev: stats.dev, ino: stats.ino });
}

/** `realpath` of a configured root; throws `invalid_root` unless it is an existing directory. */
export function resolveFilesystemRoot(root: unknown): string {
  if (typeof root !== 'string' || root.length === 0 || root.includes('\0'))
    throw new FilesystemError('invalid_root', 'The root must be a non-empty path string without NUL bytes.');
  let real: string;
  try {
    real = realpathSync(path.resolve(root));
  } catch (error) {
    throw new FilesystemError('invalid_root', `The root '${root}' does not exist or cannot be resolved.`, undefined, {
      cause: error,
    });
  }
  if (!statSync(real).isDirectory())
    throw new FilesystemError('invalid_root', `The root '${root}' is not a directory.`);
  return real;
}
