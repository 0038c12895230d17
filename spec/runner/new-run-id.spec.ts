import { randomUUID } from 'node:crypto';
import { newRunId } from '../../lib/runner/new-run-id';
import { LlmAgentRunner, ScriptedModelClient, ReflectedToolProvider } from '../../lib';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('newRunId', () => {
  it('gives version 4 UUIDs in the form randomUUID gives, across many refills of its pool', () => {
    const ids = Array.from({ length: 5_000 }, () => newRunId());
    for (const id of ids) expect(id).toMatch(UUID_V4);
    expect(randomUUID()).toMatch(UUID_V4);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('draws every random hex digit: each position of the free digits takes all 16 values', () => {
    const ids = Array.from({ length: 2_000 }, () => newRunId());
    for (const position of [0, 7, 9, 15, 20, 35]) {
      const seen = new Set(ids.map((id) => id[position]));
      expect(seen.size).toBe(16);
    }
    // The variant digit takes the four values 8, 9, a and b.
    expect(new Set(ids.map((id) => id[19]))).toEqual(new Set(['8', '9', 'a', 'b']));
  });

  it('hands out flat strings that do not change when the pool refills', () => {
    const first = newRunId();
    const copy = `${first}`.split('').join('');
    for (let index = 0; index < 1_500; index++) newRunId();
    expect(first).toBe(copy);
  });

  it('is the run id of a run that was given none', async () => {
    const runner = new LlmAgentRunner(new ScriptedModelClient([{ text: 'hi' }, { text: 'hi' }]), new ReflectedToolProvider([]));
    const [one, two] = [await runner.complete('a'), await runner.complete('b')];
    expect(one.runId).toMatch(UUID_V4);
    expect(two.runId).toMatch(UUID_V4);
    expect(one.runId).not.toBe(two.runId);
  });
});
