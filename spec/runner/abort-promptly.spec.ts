import {
  LlmAgentEvent,
  LlmAgentRunner,
  ModelRequest,
  ModelResponse,
  ScriptedModelClient,
  standardFailure,
} from '../../lib';
import { ModelStepper } from '../../lib/model';
import { FunctionProvider } from './support';

/**
 * Settles to 'pending' when `promise` has not settled within `ms`: a run that ignores its abort fails the test instead
 * of hanging it.
 */
function within<T>(promise: Promise<T>, ms = 3000): Promise<T | 'pending'> {
  return Promise.race([promise, new Promise<'pending'>((resolve) => setTimeout(() => resolve('pending'), ms).unref())]);
}

const never = <T>(): Promise<T> => new Promise<T>(() => undefined);
const oneCall = (name = 'work') =>
  new ScriptedModelClient([{ toolCalls: [{ id: 'c1', name, arguments: {} }] }, { text: 'done' }]);

describe('an abort ends the run promptly', () => {
  it('a model client that ignores its signal does not keep complete() pending', async () => {
    const requests: ModelRequest[] = [];
    const deaf: ModelStepper = {
      modelName: 'deaf',
      step: (request: ModelRequest): Promise<ModelResponse> => (requests.push(request), never()),
    };
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('operator stop')), 20);
    const result = await within(
      new LlmAgentRunner(deaf, new FunctionProvider()).complete('hi', { signal: controller.signal }),
    );
    expect(result).not.toBe('pending');
    expect(result).toMatchObject({ stopReason: 'aborted', steps: 1 });
    expect(requests[0].signal.aborted).toBe(true);
  });

  it('a prepareToolResult that never settles: the call ends as cancelled, saying the tool ran', async () => {
    const controller = new AbortController();
    const provider = new FunctionProvider().add('work', () => 'worked');
    const events: LlmAgentEvent[] = [];
    const run = new LlmAgentRunner(oneCall(), provider).complete('go', {
      signal: controller.signal,
      prepareToolResult: () => (setTimeout(() => controller.abort(), 10), never()),
      onEvent: (event) => events.push(event),
    });
    const result = await within(run);
    expect(result).not.toBe('pending');
    if (result === 'pending') return;
    expect(result.stopReason).toBe('aborted');
    expect(result.toolCalls[0].outcome.error).toMatchObject({ code: 'cancelled' });
    expect(result.toolCalls[0].outcome.error?.message).toMatch(/ran/);
    expect(provider.calls).toHaveLength(1);
  });

  it('an onToolResult that never settles does not hold the run after an abort', async () => {
    const controller = new AbortController();
    const provider = new FunctionProvider().add('work', () => 'worked');
    const run = new LlmAgentRunner(oneCall(), provider).complete('go', {
      signal: controller.signal,
      onToolResult: () => (setTimeout(() => controller.abort(), 10), never()),
    });
    const result = await within(run);
    expect(result).not.toBe('pending');
    if (result === 'pending') return;
    expect(result.stopReason).toBe('aborted');
    expect(result.toolCalls[0].outcome).toEqual({ ok: true, text: 'worked' });
  });

  it('an onToolOutputProjection that never settles does not hold the run', async () => {
    const provider = new FunctionProvider().add('work', () => 'worked');
    const result = await within(
      new LlmAgentRunner(oneCall(), provider).complete('go', { onToolOutputProjection: () => void never() }),
    );
    expect(result).toMatchObject({ stopReason: 'end_turn', text: 'done' });
  });

  it('an abort during compensation ends the call as cancelled, with the compensation state in details', async () => {
    const controller = new AbortController();
    let attempts = 0;
    const provider = new FunctionProvider({ compensation: true }).add(
      'charge',
      () => (++attempts, { ...standardFailure('unavailable', 'half charged'), compensation: 'required' as const }),
      { compensation: { enabled: true }, retry: { maxAttempts: 3, initialDelayMs: 1, maxDelayMs: 1, jitter: 0 } },
    );
    provider.compensate = () => (setTimeout(() => controller.abort(), 10), never());
    const result = await within(
      new LlmAgentRunner(oneCall('charge'), provider).complete('go', { signal: controller.signal }),
    );
    expect(result).not.toBe('pending');
    if (result === 'pending') return;
    const outcome = result.toolCalls[0].outcome;
    expect(outcome.error).toMatchObject({
      code: 'cancelled',
      details: { compensation: 'failed', lastError: { code: 'unavailable' } },
    });
    expect(outcome.compensation).toBe('failed');
    expect(attempts).toBe(1);
  });
});
