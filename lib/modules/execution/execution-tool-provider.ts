import { NO_CAPABILITIES } from '../../contract/defaults';
import { ToolDescriptor } from '../../contract/tool-descriptor';
import { JsonObject } from '../../outcome/json-value';
import { toolData, toolFailure, ToolOutcome } from '../../outcome/tool-outcome';
import { ToolInvocation } from '../../providers/tool-invocation';
import { ToolProvider, ToolProviderCapabilities } from '../../providers/tool-provider';
import { compileInputValidator } from '../../validation/schema-validator';
import { checkToolArguments } from '../knowledge/check-tool-arguments';
import { directInvocation } from '../knowledge/direct-invocation';
import { EXECUTION_TOOL_NAMES as TOOLS, executionToolDescriptors } from './execution-tools';
import { Job } from './job';
import { JobManager, JobManagerOptions } from './job-manager';
import { JobDefinition, JobHandler } from './job-types';
import { resolveExecutionOptions, ResolvedExecutionOptions } from './resolve-execution-options';
import { toJobData } from './to-job-data';
import { waitForSettle } from './wait-for-settle';

/** Options of an {@link ExecutionToolProvider}. */
export interface ExecutionToolProviderOptions extends JobManagerOptions {
  /** Job kinds to register, by name (a handler, or a definition with description, input schema and side effect). */
  readonly jobs?: Readonly<Record<string, JobHandler | JobDefinition>>;
  /** Longest `waitMs` of `job_result`. @default 10000 */
  readonly maxWaitMs?: number;
  /**
   * How long `job_cancel`, and an aborted `job_run`, wait for the handler to stop before answering `cancelling`.
   * @default 1000
   */
  readonly cancelGraceMs?: number;
  /** Deadline of one `job_run` call (its contract `timeoutMs`). @default 300000 */
  readonly runTimeoutMs?: number;
  /**
   * Longest silence between progress reports of a `job_run` call (its contract `heartbeat.idleTimeoutMs`). @default
   * 30000
   */
  readonly heartbeatIdleTimeoutMs?: number;
}

/**
 * Long-running jobs as tools. The host registers job kinds as async functions
 * `(input, { signal, reportProgress }) => result`; the model starts them in the background
 * (`job_start`, then `job_status`, `job_result`, `job_cancel`) or runs one within a single call
 * (`job_run`), whose progress reports are forwarded as heartbeats. Capabilities are declared per
 * tool for what each really consumes: `job_start` the idempotency key (a retried start answers the
 * same job), `job_run` the heartbeat callback.
 */
export class ExecutionToolProvider implements ToolProvider {
  /** The registered kinds and the jobs of this provider. */
  readonly jobs: JobManager;
  private readonly settings: ResolvedExecutionOptions;
  private descriptors?: readonly ToolDescriptor[];

  /**
   * Throws `ExecutionModuleError` for bad limits (`invalid_execution_options`) or job kinds (`invalid_job_kind`,
   * `duplicate_job_kind`).
   */
  constructor(options: ExecutionToolProviderOptions = {}) {
    this.settings = resolveExecutionOptions(options);
    this.jobs = new JobManager(options);
    for (const [kind, definition] of Object.entries(options.jobs ?? {})) this.jobs.register(kind, definition);
  }

  /** Registers another job kind; the descriptors are rebuilt to list it. */
  register(kind: string, definition: JobHandler | JobDefinition): this {
    this.jobs.register(kind, definition);
    this.descriptors = undefined;
    return this;
  }

  /** The five job tools, describing the registered kinds. */
  listTools(): readonly ToolDescriptor[] {
    this.descriptors ??= Object.freeze(executionToolDescriptors({ ...this.settings, kinds: this.jobs.kinds() }));
    return this.descriptors;
  }

  /** `job_start`: the idempotency key. `job_run`: heartbeats. The others: nothing beyond their arguments. */
  capabilities(toolName: string): ToolProviderCapabilities {
    if (toolName === TOOLS.start) return { ...NO_CAPABILITIES, idempotencyKey: true };
    if (toolName === TOOLS.run) return { ...NO_CAPABILITIES, heartbeat: true };
    return NO_CAPABILITIES;
  }

  /**
   * Legacy form for hosts calling the provider directly: no idempotency key, no heartbeats; the
   * contract's timeout is a deadline the caller enforces.
   */
  invoke(toolName: string, args: JsonObject, signal?: AbortSignal): Promise<ToolOutcome> {
    return this.invokeTool(directInvocation(this, toolName, args, signal));
  }

  /** Runs one job tool. Bad input, unknown kinds and unknown job ids become failures, never throws. */
  async invokeTool(invocation: ToolInvocation): Promise<ToolOutcome> {
    const descriptor = this.listTools().find((candidate) => candidate.name === invocation.toolName);
    if (descriptor === undefined)
      return toolFailure({ code: 'unknown_tool', message: `This provider has no tool '${invocation.toolName}'.` });
    const checked = checkToolArguments(descriptor, invocation.arguments);
    if (!checked.ok) return checked.failure;
    const args = checked.value;
    switch (descriptor.name) {
      case TOOLS.start:
        return this.start(args, invocation.idempotencyKey);
      case TOOLS.run:
        return this.run(args, invocation);
      case TOOLS.status:
        return this.withJob(args, (job) => toolData(toJobData(job.snapshot())));
      case TOOLS.result:
        return this.withJob(args, async (job) => {
          await waitForSettle(job.settled, (args.waitMs as number | undefined) ?? 0, invocation.signal);
          return toolData(toJobData(job.snapshot()));
        });
      default:
        return this.withJob(args, async (job) => {
          job.cancel('Cancelled by job_cancel.');
          await waitForSettle(job.settled, this.settings.cancelGraceMs, invocation.signal);
          return toolData(toJobData(job.snapshot()));
        });
    }
  }

  private start(args: JsonObject, idempotencyKey: string | undefined): ToolOutcome {
    const started = this.startJob(args, idempotencyKey);
    if (!('job' in started)) return started;
    return toolData(toJobData(started.job.snapshot(), { reused: started.reused }));
  }

  private async run(args: JsonObject, invocation: ToolInvocation): Promise<ToolOutcome> {
    if (invocation.signal.aborted)
      return toolFailure({ code: 'cancelled', message: 'The call was aborted before the job started.' });
    const started = this.startJob(args, undefined);
    if (!('job' in started)) return started;
    const job = started.job;
    const unsubscribe = job.onProgress((progress) => invocation.reportHeartbeat(progress));
    // On abort the call answers once the job has settled or after the cancel grace, whichever is
    // first: a handler that ignores its signal cannot hold the call (it stays `cancelling`).
    let abort: () => void = () => undefined;
    const stopped = new Promise<void>((resolve) => {
      abort = () => {
        job.cancel('The job_run call was aborted (deadline, heartbeat silence or run cancellation).');
        void waitForSettle(job.settled, this.settings.cancelGraceMs).then(resolve);
      };
      void job.settled.then(resolve);
    });
    invocation.signal.addEventListener('abort', abort, { once: true });
    try {
      await stopped;
    } finally {
      invocation.signal.removeEventListener('abort', abort);
      unsubscribe();
    }
    const snapshot = job.snapshot();
    if (snapshot.status === 'succeeded') return toolData(toJobData(snapshot));
    if (snapshot.status === 'cancelled' || snapshot.status === 'cancelling')
      return toolFailure({
        code: 'cancelled',
        message: snapshot.error ?? 'The job was cancelled.',
        details: toJobData(snapshot),
      });
    return toolFailure({
      code: 'job_failed',
      category: 'internal',
      message: `Job ${snapshot.kind} failed: ${snapshot.error ?? 'unknown error'}`,
      details: toJobData(snapshot),
    });
  }

  /**
   * Checks the kind's input schema and starts (or finds, by idempotency key) the job; a refusal is the failure to
   * answer.
   */
  private startJob(args: JsonObject, idempotencyKey: string | undefined): { job: Job; reused: boolean } | ToolOutcome {
    const kind = args.kind as string;
    const input = args.input;
    const schema = this.jobs.kinds().get(kind)?.inputSchema;
    const issues = schema === undefined ? [] : compileInputValidator(schema)(input);
    if (issues.length > 0) {
      const listed = issues.map((issue) => ({ pointer: `/input${issue.pointer}`, message: issue.message }));
      const text = listed.map((issue) => `${issue.pointer} ${issue.message}`).join('; ');
      return toolFailure({
        code: 'invalid_arguments',
        message: `Invalid input for job kind '${kind}': ${text}`,
        details: { issues: listed },
      });
    }
    const started = this.jobs.start(kind, input, idempotencyKey);
    if (started.ok) return { job: started.job, reused: started.reused };
    if (started.reason === 'unknown_kind')
      return toolFailure({
        code: 'invalid_arguments',
        message: `Unknown job kind '${kind}'. Known kinds: ${started.kinds.join(', ') || 'none'}.`,
      });
    return toolFailure({
      code: 'rate_limited',
      message: `Too many jobs are running (limit ${started.limit}); wait for one to finish.`,
    });
  }

  private async withJob(
    args: JsonObject,
    answer: (job: Job) => ToolOutcome | Promise<ToolOutcome>,
  ): Promise<ToolOutcome> {
    const jobId = args.jobId as string;
    const job = this.jobs.get(jobId);
    if (job === undefined)
      return toolFailure({
        code: 'not_found',
        message: `No job with id '${jobId}' (unknown, or finished long ago and forgotten).`,
      });
    return answer(job);
  }
}
