import { PostgresRunStore } from '../../lib/durable/postgres';
import { MemoryRunStore } from 'wuwe';

describe('PostgresRunStore.isInstance', () => {
  it('recognises a store of another copy of the package by its shared marker, not by its prototype', () => {
    const fromAnotherCopy = Object.create(null) as Record<symbol, unknown>;
    fromAnotherCopy[Symbol.for('wuwe.PostgresRunStore')] = true;
    expect(PostgresRunStore.isInstance(fromAnotherCopy)).toBe(true);
  });

  it('answers false for other stores, plain values and a hostile proxy', () => {
    const hostile = new Proxy(
      {},
      {
        get: () => {
          throw new Error('trap');
        },
      },
    );
    for (const value of [new MemoryRunStore(), {}, null, undefined, 'PostgresRunStore', hostile])
      expect(PostgresRunStore.isInstance(value)).toBe(false);
  });
});
