import Database from 'better-sqlite3';
import { join } from 'node:path';
import { withRunLease } from '../../lib/durable';
import { RunStoreError, MemoryRunStore } from '../../lib';
import { SqliteRunStore } from '../../lib/durable/sqlite';
import { makeTempDir } from './temp-dir';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('withRunLease', () => {
  it('holds and renews the lease while the work runs, then releases it', async () => {
    const store = new MemoryRunStore();
    await store.createRun({ runId: 'r' });
    const result = await withRunLease(store, 'r', { workerId: 'w1', ttlMs: 60, renewEveryMs: 15 }, async (signal) => {
      await sleep(150);
      expect(await store.acquireLease('r', 'w2', 60)).toBe(false);
      expect(signal.aborted).toBe(false);
      return 'done';
    });
    expect(result).toBe('done');
    expect((await store.loadRun('r'))!.lease).toBeUndefined();
  });

  it('renews a lease of months on time: no overflowing timer, so no TimeoutOverflowWarning and no renewal every millisecond', async () => {
    const store = new MemoryRunStore();
    await store.createRun({ runId: 'r' });
    const renew = jest.spyOn(store, 'renewLease');
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const ninetyDays = 90 * 24 * 3600 * 1000;
      // Renewing every ttl/3 is 30 days, above the 2^31-1 ms one setTimeout can wait.
      await withRunLease(store, 'r', { workerId: 'w1', ttlMs: ninetyDays }, async () => sleep(80));
      await withRunLease(store, 'r', { workerId: 'w1', ttlMs: 1000, renewEveryMs: 2 ** 31 + 10 }, async () =>
        sleep(40),
      );
    } finally {
      process.off('warning', onWarning);
    }
    expect(renew).not.toHaveBeenCalled();
    expect(warnings).not.toContain('TimeoutOverflowWarning');
  });

  it('runs nothing when another worker holds the lease', async () => {
    const store = new MemoryRunStore();
    await store.createRun({ runId: 'r' });
    await store.acquireLease('r', 'w2', 10_000);
    const work = jest.fn(async () => 'ran');
    await expect(withRunLease(store, 'r', { workerId: 'w1', ttlMs: 1000 }, work)).rejects.toEqual(
      expect.objectContaining({ code: 'lease_held' }),
    );
    expect(work).not.toHaveBeenCalled();
  });

  it('aborts the work when the lease is taken over', async () => {
    let now = 0;
    const store = new MemoryRunStore({ clock: () => now });
    await store.createRun({ runId: 'r' });
    const reason = await withRunLease(store, 'r', { workerId: 'w1', ttlMs: 100, renewEveryMs: 10 }, async (signal) => {
      now += 1000;
      expect(await store.acquireLease('r', 'w2', 100)).toBe(true);
      await new Promise((resolve) => signal.addEventListener('abort', resolve));
      return signal.reason as unknown;
    });
    expect(reason).toBeInstanceOf(RunStoreError);
    expect(reason).toMatchObject({ code: 'lease_held' });
    expect((await store.loadRun('r'))!.lease?.workerId).toBe('w2');
  });

  it('gives the lease up at once when the leased read finds the record tampered, and runs nothing', async () => {
    const dir = makeTempDir('lease-tampered');
    try {
      const path = join(dir.path, 'runs.db');
      const store = new SqliteRunStore(path);
      await store.createRun({ runId: 'r', messages: [{ role: 'user', content: 'count the rows' }] });
      const raw = new Database(path);
      raw.prepare("UPDATE wuwe_messages SET message_json = replace(message_json, 'count', 'drop')").run();
      raw.close();
      let ran = false;
      await expect(
        withRunLease(store, 'r', { workerId: 'w1', ttlMs: 60_000 }, async () => {
          ran = true;
        }),
      ).rejects.toMatchObject({ code: 'record_tampered' });
      expect(ran).toBe(false);
      expect(await store.acquireLease('r', 'w2', 60_000)).toBe(true);
      await store.close();
    } finally {
      dir.cleanup();
    }
  });
});
