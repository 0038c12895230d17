import { RunnerClock, startTimer } from '../runner-clock';

/** Default of `abortedWriteGraceMs`: how long an aborted run still waits for its store. */
export const DEFAULT_ABORTED_WRITE_GRACE_MS = 1_000;

/**
 * How long a run still waits for its store once its signal has aborted. Before the abort, {@link AbortGrace.guard}
 * waits for a store operation as long as it takes; from the abort on, every operation (one pending at the abort,
 * or one started after it, such as the final status or the lease release) is waited for until `graceMs` after the
 * abort was first seen at most, then abandoned with `abandoned()`. So a store that never answers cannot keep an aborted
 * run
 * pending, while a healthy one still records how the run ended.
 */
export class AbortGrace {
  private deadlineAtMs: number | undefined;

  constructor(
    private readonly signal: AbortSignal | undefined,
    private readonly graceMs: number,
    private readonly clock: RunnerClock,
    private readonly abandoned: () => Error,
  ) {}

  /** Settles as `operation` does, or rejects with `abandoned()` when the grace after an abort ran out first. */
  guard<T>(operation: PromiseLike<T>): Promise<T> {
    const signal = this.signal;
    if (signal === undefined) return Promise.resolve(operation);
    return new Promise<T>((resolve, reject) => {
      let cancelTimer: (() => void) | undefined;
      const arm = (): void => {
        // The grace starts when an operation first sees the abort (no listener outlives an operation).
        this.deadlineAtMs ??= this.clock.now() + this.graceMs;
        cancelTimer = startTimer(
          this.clock,
          () => reject(this.abandoned()),
          Math.max(0, this.deadlineAtMs - this.clock.now()),
        );
      };
      const finish = (): void => {
        signal.removeEventListener('abort', arm);
        cancelTimer?.();
      };
      if (signal.aborted) arm();
      else signal.addEventListener('abort', arm, { once: true });
      Promise.resolve(operation).then(
        (value) => {
          finish();
          resolve(value);
        },
        (error: unknown) => {
          finish();
          // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passed on unchanged
          reject(error);
        },
      );
    });
  }
}
