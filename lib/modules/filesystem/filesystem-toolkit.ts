import { AuditedToolkit } from '../audited-toolkit';
import { descriptorFromLlmTool } from '../../contract/compile-descriptor';
import { ToolContractOptions, ToolDescriptor } from '../../contract/tool-descriptor';
import { ToolOutcome, toolData } from '../../outcome/tool-outcome';
import { deleteEntry, moveEntry, statEntry } from './entry-operations';
import { operationRefusal } from './operation-refusal';
import { listDirectory, makeDirectory } from './directory-operations';
import { readFileRange, writeFileContent } from './file-content-operations';
import { FilesystemAuditEntry, FilesystemAuditSink } from './filesystem-audit';
import { FilesystemCall, FilesystemOperationHandler, displayPath } from './filesystem-call';
import { toFilesystemError } from './errno-mapping';
import { FilesystemError } from './filesystem-error';
import { hasLoneSurrogate } from './path-rules';
import { FILESYSTEM_OPERATIONS, FilesystemOperation } from './filesystem-operations';
import { FilesystemPolicyOptions, ResolvedFilesystemPolicy, compileFilesystemPolicy } from './filesystem-policy';
import { FILESYSTEM_TOOL_SPECS } from './filesystem-tool-specs';
import { searchByName } from './search-operation';
import { ToolArguments } from './tool-arguments';

/** Provider configuration of a {@link FilesystemToolkit}, beside its policy. */
export interface FilesystemToolkitOptions {
  /** Tool names are `<prefix>_<operation>`, e.g. `fs_read`. @default 'fs' */
  readonly toolNamePrefix?: string;
  /** Contract fields per operation, over the defaults (e.g. a shorter `timeoutMs`, or `approval` of `delete`). */
  readonly contracts?: Partial<Record<FilesystemOperation, ToolContractOptions>>;
}

const HANDLERS: Readonly<Record<FilesystemOperation, FilesystemOperationHandler>> = {
  read: readFileRange,
  list: listDirectory,
  stat: statEntry,
  search: searchByName,
  write: writeFileContent,
  append: writeFileContent,
  mkdir: makeDirectory,
  move: moveEntry,
  delete: deleteEntry,
};

/**
 * File tools confined to one root directory, as a {@link wuwe!ToolProvider}: `fs_read`, `fs_list`,
 * `fs_stat`, `fs_search`, `fs_write`, `fs_append`, `fs_mkdir`, `fs_move`, `fs_delete` (those the
 * policy allows). Every call is checked at invocation time against the policy and the real
 * filesystem, never through a shell; refusals come back as failure outcomes (`permission_denied`
 * with `details.reason`), and every call leaves one audit entry.
 *
 * Swaps during a call: every path is walked from the root one component at a time, each directory
 * opened `O_NOFOLLOW` through the handle of the previous one, and every entry is then inspected,
 * opened, created, renamed and removed through the checked handle of its directory
 * (`/proc/self/fd/N/name`, the `*at` calls Node.js 20 lacks). Links inside the root are followed by
 * reading them through that handle and walking their target again from the root. No host path is
 * resolved after the root, so a component swapped for a link at any moment can redirect nothing, and
 * no clean-up acts by path. The root itself is opened by its path before the first step of every
 * walk and must be the directory recorded at construction (device and inode): a parent of the root
 * swapped for a link, or another directory put at its path, is refused as `root_replaced` before
 * anything is touched (`root_unavailable` when nothing is there). What remains:
 * - another process moving a checked directory out of the root (a rename, not a link) after it was
 *   opened; the handle's `/proc` path is checked once more right after the walk, not before each use
 *   (where `/proc` cannot give the path, one longer than `PATH_MAX`, the handle is walked up through
 *   `..` until the root's recorded directory is met; a check that cannot be made refuses);
 * - a second hard link made after the link count was checked;
 * - without `/proc` (non-Linux), each step opens by host path, with the window between steps;
 * - handles are opened `O_RDONLY`, so a directory the process may write but not read (`-wx`) cannot
 *   be changed through the toolkit.
 * The model cannot create links through these tools; these need a second party writing in the root.
 * Errors name only root-relative paths and errno codes, never a host path.
 */
export class FilesystemToolkit extends AuditedToolkit<FilesystemAuditEntry> {
  /** The compiled policy. */
  readonly policy: ResolvedFilesystemPolicy;
  private readonly operations = new Map<string, FilesystemOperation>();
  /** The policy's sink, whose failures reach the model without their message (it may name host paths). */
  private readonly auditSink: FilesystemAuditSink | undefined;

  /**
   * Throws {@link FilesystemError} (`invalid_root`, `invalid_policy`) or `ToolContractError` for a bad configuration.
   */
  constructor(policy: FilesystemPolicyOptions, options: FilesystemToolkitOptions = {}) {
    super();
    this.policy = compileFilesystemPolicy(policy);
    const sink = this.policy.audit;
    this.auditSink =
      sink === undefined
        ? undefined
        : async (entry) => {
            try {
              await sink(entry);
            } catch {
              throw new Error('the audit sink of the filesystem toolkit failed');
            }
          };
    const prefix = options.toolNamePrefix ?? 'fs';
    const descriptors: ToolDescriptor[] = [];
    for (const operation of FILESYSTEM_OPERATIONS) {
      const name = `${prefix}_${operation}`;
      this.operations.set(name, operation);
      if (!this.isOffered(operation)) continue;
      const spec = FILESYSTEM_TOOL_SPECS[operation];
      const contract = { ...spec.contract, ...options.contracts?.[operation] };
      descriptors.push(
        descriptorFromLlmTool({ name, description: spec.description, inputSchema: spec.inputSchema }, contract),
      );
    }
    this.offer(descriptors);
  }

  private isOffered(operation: FilesystemOperation): boolean {
    return this.policy.operations.includes(operation) && !operationRefusal(this.policy, operation);
  }

  protected override async run(toolName: string, args: unknown, signal: AbortSignal | undefined): Promise<ToolOutcome> {
    const operation = this.operations.get(toolName);
    const record = (typeof args === 'object' && args !== null ? args : {}) as Record<string, unknown>;
    const base = { operation: operation ?? ('unknown' as const), path: displayPath(record.path ?? record.from ?? '') };
    const audited = operation === 'move' ? { ...base, target: displayPath(record.to) } : base;
    let outcome: ToolOutcome;
    let entry: FilesystemAuditEntry;
    let started = false;
    try {
      if (operation === undefined)
        throw new FilesystemError('operation_not_allowed', `This toolkit has no tool named '${toolName}'.`);
      const refusal = operationRefusal(this.policy, operation);
      if (refusal !== undefined) throw refusal;
      if (signal?.aborted)
        throw new FilesystemError('cancelled', `The ${operation} call was cancelled before it started.`);
      const spec = FILESYSTEM_TOOL_SPECS[operation];
      const fail = (message: string) => new FilesystemError('invalid_arguments', message);
      const reader = ToolArguments.of(args, spec.argumentNames, fail);
      refuseIllFormedText(record);
      const call: FilesystemCall = {
        operation,
        toolName,
        policy: this.policy,
        args: reader,
        rawArguments: record,
        signal,
      };
      started = true;
      const result = await HANDLERS[operation](call);
      outcome = toolData(result.data);
      entry = {
        at: now(),
        ...audited,
        outcome: 'allowed',
        ...(result.bytes === undefined ? {} : { bytes: result.bytes }),
      };
    } catch (error) {
      const failure = toFilesystemError(error, base.path, `complete the ${base.operation} of`);
      outcome = failure.toOutcome();
      entry = {
        at: now(),
        ...audited,
        outcome: failure.refusal ? 'refused' : started ? 'allowed' : 'failed',
        code: failure.code,
      };
    }
    return this.audit(entry, outcome, this.auditSink);
  }
}

const PATH_ARGUMENTS: readonly string[] = ['path', 'from', 'to'];

/**
 * Refuses a string argument holding a lone UTF-16 surrogate: such text has no UTF-8 form, Node.js
 * would write it as U+FFFD. A path argument is refused as `invalid_path`, any other as
 * `invalid_arguments`, as the runner's schema validation would.
 */
function refuseIllFormedText(record: Readonly<Record<string, unknown>>): void {
  for (const [key, value] of Object.entries(record)) {
    if (typeof value !== 'string' || !hasLoneSurrogate(value)) continue;
    const code = PATH_ARGUMENTS.includes(key) ? 'invalid_path' : 'invalid_arguments';
    throw new FilesystemError(
      code,
      `'${key}' contains a lone UTF-16 surrogate; text must be well-formed Unicode.`,
      PATH_ARGUMENTS.includes(key) ? displayPath(value) : undefined,
    );
  }
}

function now(): string {
  return new Date().toISOString();
}
