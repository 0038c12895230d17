import fc from 'fast-check';
import { ChatMessage } from '../../lib';
import { InMemoryMemory } from '../../lib/model';

const user = (content: string): ChatMessage => ({ role: 'user', content });

describe('InMemoryMemory', () => {
  it('keeps each run apart when appends and reads of several runs interleave', () => {
    const memory = new InMemoryMemory();
    memory.append('a', user('a1'));
    memory.append('b', user('b1'));
    memory.append('a', user('a2'));
    expect(memory.messages('b')).toEqual([user('b1')]);
    memory.append('b', user('b2'));
    expect(memory.messages('a')).toEqual([user('a1'), user('a2')]);
    expect(memory.messages('b')).toEqual([user('b1'), user('b2')]);
  });

  it('answers an empty list for a run it never saw, without creating it', () => {
    const memory = new InMemoryMemory();
    expect(memory.messages('nobody')).toEqual([]);
    memory.append('nobody', user('first'));
    expect(memory.messages('nobody')).toEqual([user('first')]);
  });

  it('forgets a run, also the one used last, and starts it afresh on the next append', () => {
    const memory = new InMemoryMemory();
    memory.append('a', user('old'));
    memory.forget('a');
    expect(memory.messages('a')).toEqual([]);
    memory.append('a', user('new'));
    expect(memory.messages('a')).toEqual([user('new')]);
    memory.append('b', user('b'));
    memory.forget('a');
    expect(memory.messages('a')).toEqual([]);
    expect(memory.messages('b')).toEqual([user('b')]);
  });

  it('finds a run by the content of its id, not by the identity of the string', () => {
    const memory = new InMemoryMemory();
    const id = ['run', '1'].join('-');
    memory.append(id, user('x'));
    memory.append('run-1', user('y'));
    expect(memory.messages(['run', '1'].join('-'))).toEqual([user('x'), user('y')]);
  });

  it('holds what a map of lists would hold, for any sequence of appends, reads and forgets', () => {
    const ids = fc.constantFrom('a', 'b', 'c');
    const operation = fc.oneof(
      fc.record({ kind: fc.constant('append' as const), id: ids, text: fc.string({ maxLength: 3 }) }),
      fc.record({ kind: fc.constant('read' as const), id: ids }),
      fc.record({ kind: fc.constant('forget' as const), id: ids }),
    );
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 40 }), (operations) => {
        const memory = new InMemoryMemory();
        const model = new Map<string, ChatMessage[]>();
        for (const op of operations) {
          if (op.kind === 'append') {
            memory.append(op.id, user(op.text));
            model.set(op.id, [...(model.get(op.id) ?? []), user(op.text)]);
          } else if (op.kind === 'forget') {
            memory.forget(op.id);
            model.delete(op.id);
          } else {
            expect(memory.messages(op.id)).toEqual(model.get(op.id) ?? []);
          }
        }
        for (const id of ['a', 'b', 'c']) expect(memory.messages(id)).toEqual(model.get(id) ?? []);
      }),
      { numRuns: 1000 },
    );
  });
});
