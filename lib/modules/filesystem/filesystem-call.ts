import { JsonObject } from '../../outcome/json-value';
import { FilesystemError } from './filesystem-error';
import { FilesystemOperation } from './filesystem-operations';
import { ResolvedFilesystemPolicy } from './filesystem-policy';
import { splitRelativePath } from './path-rules';
import { ToolArguments } from './tool-arguments';

/** Everything an operation needs for one call. */
export interface FilesystemCall {
  readonly operation: FilesystemOperation;
  readonly toolName: string;
  readonly policy: ResolvedFilesystemPolicy;
  readonly args: ToolArguments;
  /** The arguments as given, for the approval hook. */
  readonly rawArguments: Readonly<Record<string, unknown>>;
  readonly signal?: AbortSignal;
}

/** What an operation returns: the model-visible data and, for the audit, the bytes moved. */
export interface FilesystemOperationResult {
  readonly data: JsonObject;
  readonly bytes?: number;
}

/** One operation of the toolkit. Throws {@link FilesystemError} for refusals and failures. */
export type FilesystemOperationHandler = (call: FilesystemCall) => Promise<FilesystemOperationResult>;

/** Throws `cancelled` when the call's signal has aborted; operations call it between steps. */
export function throwIfCancelled(call: FilesystemCall): void {
  if (call.signal?.aborted) throw new FilesystemError('cancelled', `The ${call.operation} call was cancelled.`);
}

/**
 * The display form of a path argument: the string given (NUL and lone surrogates spelled out), or '' when it is not
 * one.
 */
export function displayPath(value: unknown): string {
  return typeof value === 'string'
    ? value
        .replace(/\0/g, '\\0')
        .replace(/[\uD800-\uDFFF]/gu, (unit) => `\\u${unit.charCodeAt(0).toString(16)}`)
        .slice(0, 4200)
    : '';
}

/** The root-relative components of the path argument `key`, checked by `splitRelativePath` under the call's policy. */
export function pathComponents(
  call: FilesystemCall,
  key: string,
  value: unknown = call.args.raw(key),
): readonly string[] {
  return splitRelativePath(value, key, { allowBackslash: call.policy.allowBackslashInNames });
}

/**
 * Runs the policy's approval hook for a destructive operation; throws `approval_denied` unless it
 * returns `true`. Without a hook, only the descriptor's approval mode (enforced by the runner) applies.
 */
export async function requireApproval(call: FilesystemCall, path: string, target?: string): Promise<void> {
  const approve = call.policy.approve;
  if (approve === undefined) return;
  let approved: boolean;
  try {
    approved =
      (await approve({
        operation: call.operation,
        toolName: call.toolName,
        path,
        arguments: call.rawArguments,
        ...(target === undefined ? {} : { target }),
      })) === true;
  } catch (error) {
    throw new FilesystemError(
      'approval_denied',
      `The approval hook failed, so the ${call.operation} of '${path}' was refused.`,
      path,
      { cause: error },
    );
  }
  if (!approved)
    throw new FilesystemError('approval_denied', `The ${call.operation} of '${path}' was not approved.`, path);
}
