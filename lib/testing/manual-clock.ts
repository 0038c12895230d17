import type { RunnerClock } from '../runner/runner-clock';

/** A timer waiting on a {@link ManualClock}. */
interface ManualTimer {
  readonly dueMs: number;
  readonly callback: () => void;
}

/**
 * A {@link RunnerClock} for tests: time stands still until the test moves it with {@link ManualClock.advance},
 * and timers fire only then, in due order. Inject it as the runner's `clock` option to test timeouts,
 * retry delays and leases without waiting.
 *
 * ```ts
 * const clock = new ManualClock();
 * const running = runner.complete('go', { clock });
 * await clock.advance(30_000); // fires the tool's 30 s timeout
 * ```
 */
export class ManualClock implements RunnerClock {
  private nowMs: number;
  private nextHandle = 1;
  private readonly timers = new Map<number, ManualTimer>();

  /** @param startMs - the time the clock shows at first, in milliseconds since the epoch. @default 0 */
  constructor(startMs = 0) {
    this.nowMs = startMs;
  }

  /** The clock's current time, in milliseconds since the epoch. */
  now(): number {
    return this.nowMs;
  }

  /** Schedules `callback` for `delayMs` from now; returns a handle for {@link ManualClock.clearTimeout}. */
  setTimeout(callback: () => void, delayMs: number): unknown {
    const handle = this.nextHandle++;
    this.timers.set(handle, { dueMs: this.nowMs + Math.max(0, delayMs), callback });
    return handle;
  }

  /** Cancels a timer; unknown handles are ignored. */
  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  /** How many timers are waiting. */
  get pendingTimers(): number {
    return this.timers.size;
  }

  /**
   * Moves time forward by `ms`, firing every timer that falls due, in due order, and letting the
   * promise reactions each one starts run before the next fires.
   */
  async advance(ms: number): Promise<void> {
    await drainMicrotasks();
    const targetMs = this.nowMs + ms;
    for (;;) {
      const next = this.nextDue(targetMs);
      if (next === undefined) break;
      this.timers.delete(next[0]);
      this.nowMs = next[1].dueMs;
      next[1].callback();
      await drainMicrotasks();
    }
    this.nowMs = targetMs;
    await drainMicrotasks();
  }

  private nextDue(targetMs: number): [number, ManualTimer] | undefined {
    let next: [number, ManualTimer] | undefined;
    for (const entry of this.timers) {
      if (entry[1].dueMs <= targetMs && (next === undefined || entry[1].dueMs < next[1].dueMs)) next = entry;
    }
    return next;
  }
}

/** Lets every pending promise reaction run: all microtasks drain before `setImmediate` fires. */
function drainMicrotasks(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
