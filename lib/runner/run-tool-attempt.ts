import { standardFailure, ToolOutcome } from '../outcome/tool-outcome';
import { HeartbeatProgress } from '../providers/tool-invocation';
import { thrownToToolOutcome, toToolOutcome } from '../tools/to-tool-outcome';
import { isPromiseLike, MaybePromise } from './maybe-promise';
import { RunnerClock } from './runner-clock';

/** What one attempt needs besides the provider call itself. */
export interface ToolAttemptOptions {
  readonly clock: RunnerClock;
  /** Hard deadline of this attempt, ms. */
  readonly timeoutMs: number;
  /** Heartbeat idle limit, ms; undefined for none. */
  readonly idleTimeoutMs?: number;
  /** The run's signal; its abort cancels the attempt. */
  readonly runSignal?: AbortSignal;
  /** Starts the provider call with the attempt's live side (its signal is created on first read). */
  readonly start: (attempt: AttemptHandle) => unknown;
  readonly onHeartbeat?: (progress?: HeartbeatProgress) => void;
  readonly onTimeout?: (limit: 'deadline' | 'heartbeat', limitMs: number) => void;
  readonly onLateResult?: (outcome: ToolOutcome) => void;
}

/**
 * What a provider call sees of its attempt. `signal` is created on first read (a tool that never
 * looks at it costs no AbortController) and is always the attempt's current signal.
 */
export interface AttemptHandle {
  readonly signal: AbortSignal;
  /** Epoch milliseconds (of the runner's clock) of the hard deadline. */
  readonly deadlineAtMs: number;
  /** Resets the heartbeat idle limit (never the deadline); a no-op without an idle limit. */
  readonly reportHeartbeat: (progress?: HeartbeatProgress) => void;
}

/**
 * Runs one attempt under a hard deadline with at most one live timer. At the deadline (or after
 * heartbeat silence longer than the idle limit, or when the run aborts) the attempt's signal is
 * aborted and a `timeout` / `heartbeat_timeout` / `cancelled` failure is returned at once, without
 * waiting for a tool that ignores the signal; a late result is reported through `onLateResult` and
 * discarded. Heartbeats move the idle limit, never the deadline. Never throws or rejects.
 *
 * A tool that answers synchronously gets its outcome back synchronously: no timer, no listener.
 * The deadline timer of an asynchronous answer is armed only once the pending promise reactions
 * have run (one `setImmediate` for every attempt started in that turn), for the time left until
 * the same deadline: a tool that settles within those reactions arms no timer at all.
 */
export function runToolAttempt(options: ToolAttemptOptions): MaybePromise<ToolOutcome> {
  const attempt = new ToolAttempt(options);
  const { runSignal } = options;
  if (runSignal?.aborted) return attempt.cancelled();
  let pending: unknown;
  try {
    pending = options.start(attempt);
  } catch (error) {
    return thrownToToolOutcome(error);
  }
  if (!isPromiseLike(pending)) return toToolOutcome(pending);
  const running = pending;
  return new Promise<ToolOutcome>((resolve) => {
    attempt.resolve = resolve;
    if (runSignal !== undefined) runSignal.addEventListener('abort', attempt, { once: true });
    unarmed.add(attempt);
    if (!sweepScheduled) {
      sweepScheduled = true;
      setImmediate(armUnsettled);
    }
    // Through Promise.resolve: a foreign thenable whose `then` throws is a rejection, not a throw here.
    Promise.resolve(running).then(
      (value) => attempt.settle(toToolOutcome(value)),
      (error: unknown) => attempt.settle(thrownToToolOutcome(error)),
    );
  });
}

/** Attempts that went asynchronous and have no timer yet; armed together once the turn's reactions have run. */
const unarmed = new Set<ToolAttempt>();
let sweepScheduled = false;

function armUnsettled(): void {
  sweepScheduled = false;
  for (const attempt of unarmed) attempt.arm();
  unarmed.clear();
}

/** The state of one attempt; its methods live on the prototype, so a call allocates no closures over it. */
class ToolAttempt implements AttemptHandle {
  readonly deadlineAtMs: number;
  resolve: ((outcome: ToolOutcome) => void) | undefined = undefined;
  private controller: AbortController | undefined = undefined;
  private reporter: ((progress?: HeartbeatProgress) => void) | undefined = undefined;
  private idleAt: number;
  private settled = false;
  private armed = false;
  private timer: unknown = undefined;

  constructor(private readonly options: ToolAttemptOptions) {
    const startedAt = options.clock.now();
    this.deadlineAtMs = startedAt + options.timeoutMs;
    this.idleAt = options.idleTimeoutMs === undefined ? Infinity : startedAt + options.idleTimeoutMs;
  }

  get signal(): AbortSignal {
    return (this.controller ??= new AbortController()).signal;
  }

  get reportHeartbeat(): (progress?: HeartbeatProgress) => void {
    return (this.reporter ??= (progress?: HeartbeatProgress): void => this.heartbeat(progress));
  }

  /** The run's signal aborted (this attempt is its listener). */
  handleEvent(): void {
    this.finish(this.cancelled());
  }

  cancelled(): ToolOutcome {
    this.abort(this.options.runSignal?.reason);
    return standardFailure('cancelled', 'the run was aborted while the tool was running');
  }

  settle(outcome: ToolOutcome): void {
    if (this.settled) this.options.onLateResult?.(outcome);
    else this.finish(outcome);
  }

  /** Arms the single timer for the nearer of the deadline and the idle limit. */
  arm(): void {
    if (this.settled) return;
    this.armed = true;
    const { clock } = this.options;
    this.timer = clock.setTimeout(() => this.onTimer(), Math.max(0, Math.min(this.deadlineAtMs, this.idleAt) - clock.now()));
  }

  private heartbeat(progress?: HeartbeatProgress): void {
    const { idleTimeoutMs } = this.options;
    if (this.settled || idleTimeoutMs === undefined) return;
    this.idleAt = this.options.clock.now() + idleTimeoutMs;
    this.options.onHeartbeat?.(progress);
  }

  private abort(reason: unknown): void {
    (this.controller ??= new AbortController()).abort(reason);
  }

  private finish(outcome: ToolOutcome): void {
    if (this.settled) return;
    this.settled = true;
    if (this.armed) this.options.clock.clearTimeout(this.timer);
    else unarmed.delete(this);
    this.options.runSignal?.removeEventListener('abort', this);
    this.resolve!(outcome);
  }

  private onTimer(): void {
    if (this.settled) return;
    const now = this.options.clock.now();
    if (now >= this.deadlineAtMs) this.expire('deadline');
    else if (now >= this.idleAt) this.expire('heartbeat');
    else this.arm();
  }

  private expire(limit: 'deadline' | 'heartbeat'): void {
    const { timeoutMs, idleTimeoutMs } = this.options;
    const limitMs = limit === 'deadline' ? timeoutMs : idleTimeoutMs!;
    this.abort(new Error(`tool ${limit} of ${limitMs} ms passed`));
    this.options.onTimeout?.(limit, limitMs);
    this.finish(
      limit === 'deadline'
        ? standardFailure('timeout', `the tool did not finish within its ${timeoutMs} ms deadline`)
        : standardFailure('heartbeat_timeout', `the tool sent no heartbeat for ${limitMs} ms`),
    );
  }
}
