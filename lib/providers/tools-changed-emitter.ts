import { ToolsChangedListener } from './tool-provider';

/**
 * The listeners of one provider's `onToolsChanged`. A listener that throws does not stop the
 * others, nor the change that was made: the first error is rethrown after every listener ran.
 */
export class ToolsChangedEmitter {
  private readonly listeners = new Set<ToolsChangedListener>();

  /** Adds a listener; returns the function that removes it. */
  subscribe(listener: ToolsChangedListener): () => void {
    const entry: ToolsChangedListener = () => listener();
    this.listeners.add(entry);
    return () => {
      this.listeners.delete(entry);
    };
  }

  /** How many listeners are subscribed. */
  get size(): number {
    return this.listeners.size;
  }

  /** Calls every listener. */
  emit(): void {
    let failure: { error: unknown } | undefined;
    for (const listener of [...this.listeners]) {
      try {
        listener();
      } catch (error) {
        failure ??= { error };
      }
    }
    if (failure !== undefined) throw failure.error;
  }
}
