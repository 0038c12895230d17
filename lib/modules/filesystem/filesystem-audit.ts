import { FilesystemOperation } from './filesystem-operations';

/**
 * One audit log entry. Every call produces exactly one, allowed, refused or failed.
 *
 * `outcome` is the policy decision: `refused` when policy refused the call before anything was
 * touched (bad path, escape, read-only, not allowed, approval denied, a root that is gone or was
 * replaced...); `failed` when policy let it through but it never started (cancelled first);
 * `allowed` when the operation ran, in which case `code` is still set if it then failed (e.g.
 * `not_found`).
 */
export interface FilesystemAuditEntry {
  /** ISO-8601 time of the decision. */
  readonly at: string;
  /** The operation, or `unknown` for a tool name the toolkit does not offer. */
  readonly operation: FilesystemOperation | 'unknown';
  /** The path as the caller gave it (relative to the root), or '' when none was given. */
  readonly path: string;
  /** The second path of a `move`. */
  readonly target?: string;
  readonly outcome: 'allowed' | 'refused' | 'failed';
  /** The {@link FilesystemErrorCode} of a refusal or failure. */
  readonly code?: string;
  /** Bytes read, written or appended. */
  readonly bytes?: number;
}

/** Receives every audit entry. May be async; a sink that throws turns the call into a `tool_error`. */
export type FilesystemAuditSink = (entry: FilesystemAuditEntry) => void | Promise<void>;
