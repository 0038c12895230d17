import { ChatMessage, LlmAgentRunner, LlmAgentRunResult, ScriptedModelClient } from '../../lib';
import { Memory } from '../../lib/model';
import { RunInProgress } from '../../lib/runner';
import { FunctionProvider } from './support';

function echo(): FunctionProvider {
  return new FunctionProvider().add(
    'echo',
    (invocation) => `echo ${JSON.stringify(invocation.arguments.text)}`,
    {},
    { text: { type: 'string' } },
  );
}

/** Two calls in one turn, then the answer. */
function twoCallTurns(): ScriptedModelClient {
  return new ScriptedModelClient([
    {
      toolCalls: [
        { id: 'a', name: 'echo', arguments: { text: 'x' } },
        { id: 'b', name: 'echo', arguments: { text: 'y' } },
      ],
    },
    { text: 'done' },
  ]);
}

/** A memory whose appends finish a macrotask later, counting how many are pending at once. */
class SlowMemory implements Memory {
  readonly kept: ChatMessage[] = [];
  pending = 0;
  mostPending = 0;

  async append(_runId: string, message: ChatMessage): Promise<void> {
    this.pending++;
    this.mostPending = Math.max(this.mostPending, this.pending);
    await new Promise((resolve) => setImmediate(resolve));
    this.kept.push(message);
    this.pending--;
  }

  messages(): readonly ChatMessage[] {
    return this.kept;
  }
}

describe('the run loop and an asynchronous memory', () => {
  it('waits for each append before the next message is recorded and before the run ends, in order', async () => {
    const memory = new SlowMemory();
    const result = await new LlmAgentRunner(twoCallTurns(), echo()).complete('go', { memory });
    expect(memory.pending).toBe(0);
    expect(memory.mostPending).toBe(1);
    expect(memory.kept).toEqual(result.messages);
    expect(result.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant']);
  });
});

describe('a memory that throws', () => {
  it.each([
    ['the prompt', 'user'],
    ['an answer', 'assistant'],
    ['the second Tool message of a turn', 'tool'],
  ])(
    'while recording %s: complete() rejects with its error instead of throwing, and the model is not asked again',
    async (_what, role) => {
      let tools = 0;
      const memory: Memory = {
        append: (_runId, message) => {
          if (message.role === 'tool') tools++;
          if (message.role === role && (role !== 'tool' || tools === 2))
            throw new Error(`no room for a ${role} message`);
        },
        messages: () => [],
      };
      const model = twoCallTurns();
      let pending: Promise<LlmAgentRunResult> | undefined;
      expect(() => (pending = new LlmAgentRunner(model, echo()).complete('go', { memory }))).not.toThrow();
      await expect(pending).rejects.toThrow(`no room for a ${role} message`);
      expect(model.requests).toHaveLength(role === 'user' ? 0 : 1);
    },
  );
});

describe('a run without a store', () => {
  it('numbers the calls of each turn after the assistant messages before it, also those a subclass adds to the history itself', async () => {
    class Noting extends LlmAgentRunner {
      protected override async runStep(run: RunInProgress): Promise<void> {
        // A note the model never wrote, pushed past recordMessage: it still counts as a turn of the history.
        if (run.steps === 1) run.messages.push({ role: 'assistant', content: 'note', toolCalls: [] });
        return super.runStep(run);
      }
    }
    const model = new ScriptedModelClient([
      { toolCalls: [{ id: 'c', name: 'echo', arguments: { text: '1' } }] },
      { toolCalls: [{ id: 'c', name: 'echo', arguments: { text: '2' } }] },
      { text: 'done' },
    ]);
    const result = await new Noting(model, echo()).complete('go');
    expect(result.toolCalls.map((call) => [call.callId, call.turn])).toEqual([
      ['c', 1],
      ['c', 3],
    ]);
  });
});
