import 'reflect-metadata';
import { LlmAgentRunner, ScriptedModelClient, Tool } from '../../lib';
import { FunctionProvider } from '../runner/support';

describe('ScriptedModelClient honours the request signal', () => {
  it('an abort while a turn function is pending rejects the step at once, and the run stops as aborted', async () => {
    const controller = new AbortController();
    const model = new ScriptedModelClient([() => new Promise(() => undefined)]);
    const pending = new LlmAgentRunner(
      model,
      new FunctionProvider().add('t', () => 'x'),
    ).complete('go', { signal: controller.signal });
    setTimeout(() => controller.abort(), 10);
    const settledInTime = await Promise.race([
      pending.then(() => true),
      new Promise((resolve) => setTimeout(() => resolve(false), 1000)),
    ]);
    expect(settledInTime).toBe(true);
    const result = await pending;
    expect(result.stopReason).toBe('aborted');
    expect(result.messages.map((m) => m.role)).toEqual(['user']);
  });

  it('a step aborted mid-turn rejects with the aborted code; a turn that answers in time is unaffected', async () => {
    const controller = new AbortController();
    const slow = new ScriptedModelClient([
      () => new Promise((resolve) => setTimeout(() => resolve({ text: 'late' }), 200)),
    ]);
    const step = slow.step({ messages: [], tools: [], signal: controller.signal });
    controller.abort();
    await expect(step).rejects.toMatchObject({ code: 'aborted' });
    const fast = new ScriptedModelClient([async () => ({ text: 'hi' })]);
    await expect(fast.step({ messages: [], tools: [], signal: new AbortController().signal })).resolves.toMatchObject({
      text: 'hi',
    });
  });
});

describe('bindTools', () => {
  it('offers the tools to the model in the given order, classes and providers mixed', async () => {
    @Tool({ description: 'Reflected.' })
    class Reflected {
      invoke(): string {
        return 'r';
      }
    }
    const model = new ScriptedModelClient([{ text: 'hi' }]);
    await model
      .bindTools(
        new FunctionProvider().add('first', () => 'f'),
        Reflected,
        new FunctionProvider().add('last', () => 'l'),
      )
      .complete('go');
    expect(model.requests[0].tools.map((tool) => tool.name)).toEqual(['first', 'Reflected', 'last']);
  });
});

describe('a scripted turn given up because its request was aborted', () => {
  it('is still observed: its later rejection is no unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const listener = (reason: unknown): void => {
      unhandled.push(reason);
    };
    process.on('unhandledRejection', listener);
    try {
      const controller = new AbortController();
      const client = new ScriptedModelClient([
        () => {
          controller.abort();
          return new Promise((_, reject) => setTimeout(() => reject(new Error('late failure')), 10));
        },
      ]);
      await expect(client.step({ messages: [], tools: [], signal: controller.signal })).rejects.toMatchObject({
        code: 'aborted',
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      process.off('unhandledRejection', listener);
    }
    expect(unhandled).toEqual([]);
  });
});
