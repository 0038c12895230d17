import { standardFailure, toolFailure, ToolOutcome } from '../../outcome/tool-outcome';
import { HeartbeatProgress } from '../../providers/tool-invocation';
import { thrownToToolOutcome, toToolOutcome } from '../../tools/to-tool-outcome';
import { isPromiseLike, MaybePromise } from '../maybe-promise';
import { RunnerClock, startTimer } from '../runner-clock';

/** What one attempt needs besides the provider call itself. */
export interface ToolAttemptOptions {
  readonly clock: RunnerClock;
  /** Hard deadline of this attempt, ms. */
  readonly timeoutMs: number;
  /** Heartbeat idle limit, ms; undefined for none. */
  readonly idleTimeoutMs?: number;
  /** The run's signal; its abort cancels the attempt. */
  readonly runSignal?: AbortSignal;
  /**
   * The tool declares an output schema: returning `undefined` is then a `tool_error`, not an empty success. @default
   * false
   */
  readonly expectsData?: boolean;
  /** Starts the provider call with the attempt's live side (its signal is created on first read). */
  readonly start: (attempt: AttemptHandle) => unknown;
  readonly onHeartbeat?: (progress?: HeartbeatProgress) => void;
  readonly onTimeout?: (limit: 'deadline' | 'heartbeat', limitMs: number) => void;
  readonly onLateResult?: (outcome: ToolOutcome) => void;
  /**
   * The attempt was given up (deadline, heartbeat silence, abort) while the tool was still running;
   * `settled` resolves when the tool's promise settles at last (never, for a tool that ignores its signal).
   */
  readonly onAbandoned?: (settled: Promise<void>) => void;
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
 * A tool that answers synchronously gets its outcome back synchronously. A tool that blocks the
 * thread past its deadline (synchronously, or before returning its promise) is a `timeout` all the
 * same, and what it returned is discarded as a late result.
 */
export function runToolAttempt(options: ToolAttemptOptions): MaybePromise<ToolOutcome> {
  const attempt = new ToolAttempt(options);
  const { runSignal, clock } = options;
  if (runSignal?.aborted) return attempt.cancelled();
  let pending: unknown;
  let threw = false;
  try {
    pending = options.start(attempt);
  } catch (error) {
    threw = true;
    pending = error;
  }
  const thenable = !threw && isPromiseLike(pending);
  if (clock.now() >= attempt.deadlineAtMs) return attempt.blockedPastDeadline(pending, threw, thenable);
  if (threw) return thrownToToolOutcome(pending);
  if (!thenable) return attempt.convert(pending);
  const outcome = new Promise<ToolOutcome>((resolve) => (attempt.resolve = resolve));
  attempt.running = attempt.settleOn(pending as PromiseLike<unknown>);
  runSignal?.addEventListener('abort', attempt, { once: true });
  attempt.arm();
  return outcome;
}

/** The state of one attempt: its signal, its deadline and idle limit, its one timer, and whether it settled. */
class ToolAttempt implements AttemptHandle {
  readonly deadlineAtMs: number;
  /** Settles the attempt's promise with its outcome. */
  resolve: ((outcome: ToolOutcome) => void) | undefined = undefined;
  running: Promise<void> | undefined = undefined;
  private controller: AbortController | undefined = undefined;
  private reporter: ((progress?: HeartbeatProgress) => void) | undefined = undefined;
  private idleAt: number;
  private settled = false;
  private cancelTimer: (() => void) | undefined = undefined;

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
    this.finish(this.cancelled(), true);
  }

  cancelled(): ToolOutcome {
    this.abort(this.options.runSignal?.reason);
    return standardFailure('cancelled', 'the run was aborted while the tool was running');
  }

  /** What the tool returned, as an outcome; `undefined` is not JSON where an output schema is declared. */
  convert(value: unknown): ToolOutcome {
    return value === undefined && this.options.expectsData === true
      ? toolFailure({
          code: 'tool_error',
          category: 'internal',
          message: 'the tool returned undefined, which is not JSON; its contract declares an output schema',
        })
      : toToolOutcome(value);
  }

  /**
   * The outcome a pending answer settles to. Through `Promise.resolve`: a foreign thenable whose `then` throws is a
   * rejection, not a throw here.
   */
  outcomeOf(pending: PromiseLike<unknown>): Promise<ToolOutcome> {
    return Promise.resolve(pending).then((value) => this.convert(value), thrownToToolOutcome);
  }

  /**
   * Settles the attempt with the outcome `pending` settles to (see {@link outcomeOf}); `running` settles with the tool.
   */
  settleOn(pending: PromiseLike<unknown>): Promise<void> {
    return Promise.resolve(pending).then(
      (value) => this.settle(this.convert(value)),
      (error: unknown) => this.settle(thrownToToolOutcome(error)),
    );
  }

  /**
   * The tool held the thread past its deadline (synchronously, or before returning its promise): nothing of it counts.
   */
  blockedPastDeadline(pending: unknown, threw: boolean, thenable: boolean): ToolOutcome {
    this.settled = true;
    const outcome = this.timedOut('deadline');
    // The hooks are called as methods of the options (which may be a class instance).
    const { options } = this;
    if (!thenable) options.onLateResult?.(threw ? thrownToToolOutcome(pending) : this.convert(pending));
    else {
      const late = this.outcomeOf(pending as PromiseLike<unknown>);
      options.onAbandoned?.(late.then(() => undefined));
      void late.then((lateOutcome) => options.onLateResult?.(lateOutcome));
    }
    return outcome;
  }

  settle(outcome: ToolOutcome): void {
    if (this.settled) this.options.onLateResult?.(outcome);
    else this.finish(outcome, false);
  }

  /** Arms the single timer for the nearer of the deadline and the idle limit. */
  arm(): void {
    if (this.settled) return;
    const { clock } = this.options;
    this.cancelTimer = startTimer(
      clock,
      () => this.onTimer(),
      Math.max(0, Math.min(this.deadlineAtMs, this.idleAt) - clock.now()),
    );
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

  private finish(outcome: ToolOutcome, abandoned: boolean): void {
    if (this.settled) return;
    this.settled = true;
    this.cancelTimer?.();
    this.options.runSignal?.removeEventListener('abort', this);
    if (abandoned && this.running !== undefined) this.options.onAbandoned?.(this.running.then(() => undefined));
    this.resolve!(outcome);
  }

  private onTimer(): void {
    if (this.settled) return;
    const now = this.options.clock.now();
    if (now >= this.deadlineAtMs) this.finish(this.timedOut('deadline'), true);
    else if (now >= this.idleAt) this.finish(this.timedOut('heartbeat'), true);
    else this.arm();
  }

  private timedOut(limit: 'deadline' | 'heartbeat'): ToolOutcome {
    const { timeoutMs, idleTimeoutMs } = this.options;
    const limitMs = limit === 'deadline' ? timeoutMs : idleTimeoutMs!;
    this.abort(new Error(`tool ${limit} of ${limitMs} ms passed`));
    this.options.onTimeout?.(limit, limitMs);
    return limit === 'deadline'
      ? standardFailure('timeout', `the tool did not finish within its ${timeoutMs} ms deadline`)
      : standardFailure('heartbeat_timeout', `the tool sent no heartbeat for ${limitMs} ms`);
  }
}
