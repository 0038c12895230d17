import { RunState } from './run-state';

/**
 * A value per run, held weakly, whose `WeakMap` is made on the first `set`: a runner built per request
 * whose runs never stream nor ask for structured output allocates none. @internal
 */
export class RunTable<Value> {
  private values: WeakMap<RunState, Value> | undefined = undefined;

  /** The run's value, or undefined. */
  get(run: RunState): Value | undefined {
    return this.values?.get(run);
  }

  /** True when the run has a value. */
  has(run: RunState): boolean {
    return this.values !== undefined && this.values.has(run);
  }

  /** Gives the run its value. */
  set(run: RunState, value: Value): this {
    (this.values ??= new WeakMap()).set(run, value);
    return this;
  }
}
