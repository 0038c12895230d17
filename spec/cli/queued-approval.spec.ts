import { startWorker } from '../../lib/queue';
import { describePostgres } from '../durable/postgres-env';
import { ledgerAgent } from '../queue/ledger-agent';
import { useQueueFixtures } from '../queue/queue-fixture';
import { waitFor } from '../queue/worker-processes';
import { runCli } from './cli-harness';

const fixture = useQueueFixtures();

describePostgres('wuwe approvals approve on a queued run', () => {
  it('enqueues the resume on the run’s own queue, and a worker completes the run', async () => {
    const f = await fixture({ name: 'billing-runs' });
    const worker = startWorker({
      queue: f.queue,
      agents: { ledger: ledgerAgent(f.pool, f.storeSchema) },
      pollIntervalMs: 50,
    });
    try {
      const runId = await f.queue.enqueue({ agent: 'ledger', input: 'refund it' });
      await waitFor(
        async () => (await f.store.loadRun(runId))?.status === 'awaiting_approval',
        30_000,
        'awaiting approval',
      );
      const store = `${f.url}${f.url.includes('?') ? '&' : '?'}schema=${f.storeSchema}`;
      const approved = await runCli(
        ['approvals', 'approve', runId, 'call_1', '--store', store, '--by', 'ops'],
        process.cwd(),
      );
      expect(approved.stderr).toBe('');
      expect(approved.code).toBe(0);
      expect(approved.stdout).toContain(`resume of run ${runId} enqueued on queue billing-runs`);
      await waitFor(
        async () => (await f.store.loadRun(runId))?.status === 'completed',
        30_000,
        'completed after the command line approval',
      );
      expect((await f.ledger(runId)).map((row) => row.tool)).toEqual(['refund', 'notify']);

      // A second queued run, decided in JSON mode: the document says the resume was enqueued.
      const second = await f.queue.enqueue({ agent: 'ledger', input: 'refund it' });
      await waitFor(
        async () => (await f.store.loadRun(second))?.status === 'awaiting_approval',
        30_000,
        'second awaiting approval',
      );
      const json = await runCli(['approvals', 'deny', second, 'call_1', '--store', store, '--json'], process.cwd());
      expect(json.code).toBe(0);
      expect(JSON.parse(json.stdout)).toMatchObject({ state: 'denied', pendingApprovals: 0, resumeEnqueued: true });
      await waitFor(
        async () => (await f.store.loadRun(second))?.status === 'completed',
        30_000,
        'second completed after the denial',
      );
      expect((await f.ledger(second)).map((row) => row.tool)).not.toContain('refund');
    } finally {
      await worker.stop();
    }
  });
});
