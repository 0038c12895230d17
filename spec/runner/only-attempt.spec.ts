import 'reflect-metadata';
import { AdmittedCall, DispatchedCall, MaybePromise, RunInProgress } from '../../lib/runner';
import {
  Field,
  LlmAgentEvent,
  LlmAgentRunner,
  ReflectedToolProvider,
  ScriptedModelClient,
  Tool,
  ToolCallRequest,
  ToolOutcome,
} from '../../lib';
import { ManualClock } from '../../lib/testing';
import { FunctionProvider } from './support';

// A call its contract never retries continues into the rest of the call (finishOutcome, completeToolCall,
// projection) in the reaction that settles its only attempt. These tests hold that fused path to what the
// chained path (taken when dispatchWithRetries is overridden) does, and check where the rest of the call runs.

@Tool({ name: 'lookup', description: 'Looks a key up.' })
class Lookup {
  @Field({ description: 'The key.' }) key!: string;
  async invoke(): Promise<{ key: string; found: boolean }> {
    await Promise.resolve();
    return { key: this.key, found: this.key !== 'missing' };
  }
}

/** The same runner with the fused path off: `dispatchWithRetries` overridden (calling the library's own). */
class ChainedRunner extends LlmAgentRunner {
  protected override dispatchWithRetries(run: RunInProgress, call: AdmittedCall): MaybePromise<DispatchedCall> {
    return super.dispatchWithRetries(run, call);
  }
}

/** A manual clock that says whether one of its timers is firing right now. */
class WatchedClock extends ManualClock {
  firing = false;
  constructor() {
    super(1_000);
  }
  override setTimeout(callback: () => void, delayMs: number): unknown {
    return super.setTimeout(() => {
      this.firing = true;
      try {
        callback();
      } finally {
        this.firing = false;
      }
    }, delayMs);
  }
}

const call = (key: string, id = 'c1') => ({ id, name: 'lookup', arguments: JSON.stringify({ key }) });

/** The parts of a result that do not depend on time. */
function comparable(result: Awaited<ReturnType<LlmAgentRunner['invokeToolCall']>>): unknown {
  const { durationMs: _durationMs, ...rest } = JSON.parse(JSON.stringify(result)) as Record<string, unknown>;
  return rest;
}

describe('the only attempt of a call, continued in its own reaction', () => {
  it('gives the result and the events the chained path gives, for a success, a tool failure and bad arguments', async () => {
    for (const input of [call('a'), call('missing'), { id: 'c1', name: 'lookup', arguments: '{"key":1}' }]) {
      const fusedEvents: LlmAgentEvent[] = [];
      const chainedEvents: LlmAgentEvent[] = [];
      const fused = await new LlmAgentRunner(
        new ScriptedModelClient([]),
        new ReflectedToolProvider([Lookup]),
      ).invokeToolCall(input, {
        runId: 'r',
        onEvent: (event) => fusedEvents.push(event),
      });
      const chained = await new ChainedRunner(
        new ScriptedModelClient([]),
        new ReflectedToolProvider([Lookup]),
      ).invokeToolCall(input, {
        runId: 'r',
        onEvent: (event) => chainedEvents.push(event),
      });
      expect(comparable(fused)).toEqual(comparable(chained));
      const shape = (events: LlmAgentEvent[]) => events.map((event) => ({ ...event, durationMs: undefined }));
      expect(shape(fusedEvents)).toEqual(shape(chainedEvents));
    }
  });

  it('rejects the call with what a step after the attempt threw', async () => {
    const thrown = new Error('finishOutcome broke');
    class Breaking extends LlmAgentRunner {
      protected override finishOutcome(): MaybePromise<ToolOutcome> {
        throw thrown;
      }
    }
    const runner = new Breaking(new ScriptedModelClient([]), new ReflectedToolProvider([Lookup]));
    await expect(runner.invokeToolCall(call('a'))).rejects.toBe(thrown);
  });

  it('after the deadline of a tool that ignores its signal, runs the rest of the call outside the timer', async () => {
    const clock = new WatchedClock();
    const provider = new FunctionProvider().add('stuck', () => new Promise(() => undefined), { timeoutMs: 5_000 });
    const seen: boolean[] = [];
    class Watching extends LlmAgentRunner {
      protected override finishOutcome(
        run: RunInProgress,
        request: ToolCallRequest,
        outcome: ToolOutcome,
      ): MaybePromise<ToolOutcome> {
        seen.push(clock.firing);
        return super.finishOutcome(run, request, outcome);
      }
    }
    const pending = new Watching(new ScriptedModelClient([]), provider).invokeToolCall(
      { id: 'c', name: 'stuck', arguments: {} },
      { clock },
    );
    await new Promise((resolve) => setImmediate(resolve));
    await clock.advance(5_000);
    const result = await pending;
    expect(result.outcome.error?.code).toBe('timeout');
    expect(seen).toEqual([false]);
  });

  it('after an abort of the run, runs the rest of the call outside the abort', async () => {
    const controller = new AbortController();
    let aborting = false;
    const seen: boolean[] = [];
    class Watching extends LlmAgentRunner {
      protected override finishOutcome(
        run: RunInProgress,
        request: ToolCallRequest,
        outcome: ToolOutcome,
      ): MaybePromise<ToolOutcome> {
        seen.push(aborting);
        return super.finishOutcome(run, request, outcome);
      }
    }
    const provider = new FunctionProvider().add('stuck', () => new Promise(() => undefined));
    const pending = new Watching(new ScriptedModelClient([]), provider).invokeToolCall(
      { id: 'c', name: 'stuck', arguments: {} },
      { signal: controller.signal },
    );
    await new Promise((resolve) => setImmediate(resolve));
    aborting = true;
    controller.abort();
    aborting = false;
    expect(seen).toEqual([]);
    const result = await pending;
    expect(result.outcome.error?.code).toBe('cancelled');
    expect(seen).toEqual([false]);
  });

  it('runs the turn of a complete() with one call to the same record as the chained path', async () => {
    const turns = [{ toolCalls: [call('a')] }, { text: 'done' }];
    const fused = await new LlmAgentRunner(
      new ScriptedModelClient(turns),
      new ReflectedToolProvider([Lookup]),
    ).complete('go', { runId: 'r' });
    const chained = await new ChainedRunner(
      new ScriptedModelClient(turns),
      new ReflectedToolProvider([Lookup]),
    ).complete('go', { runId: 'r' });
    expect(fused.messages).toEqual(chained.messages);
    expect(fused.toolCalls.map(comparable)).toEqual(chained.toolCalls.map(comparable));
    expect(fused.text).toBe('done');
  });
});
