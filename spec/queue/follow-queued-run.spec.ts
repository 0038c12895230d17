import 'reflect-metadata';
import { PostgresRunStore } from '../../lib/durable/postgres';
import { startWorker } from '../../lib/queue';
import { followUIMessageStream, FollowedUIChunk } from '../../lib/ui-stream';
import { buildRunner, executions } from '../../samples/08-ui-stream/agent';
import { describePostgres } from '../durable/postgres-env';
import { useQueueFixtures } from './queue-fixture';

const fixture = useQueueFixtures();
const secret = 's'.repeat(40);

async function readAll(stream: ReadableStream<FollowedUIChunk>): Promise<FollowedUIChunk[]> {
  const values: FollowedUIChunk[] = [];
  const reader = stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) values.push(next.value);
  return values;
}

describePostgres('a queued run streamed to the web process through its kept events', () => {
  it('the worker keeps the events, the web process follows them live (LISTEN/NOTIFY), in order, to the answer', async () => {
    const f = await fixture();
    // The web process's own store: another pool, so each notification crosses connections.
    const web = await PostgresRunStore.open({ connectionString: f.url, schema: f.storeSchema });
    const worker = startWorker({
      queue: f.queue,
      agents: { refunds: { runner: buildRunner(), runOptions: { keepEvents: {} } } },
      concurrency: 1,
      pollIntervalMs: 50,
    });
    try {
      executions.refund = 0;
      const runId = await f.queue.enqueue({ agent: 'refunds', input: 'Refund order A-1' });
      // Followed before the worker wrote anything: the stream waits for the first event.
      const first = await readAll((await followUIMessageStream(web, runId, { approvals: { secret, store: web } }))!);
      const types = first.map((entry) => entry.chunk.type);
      expect(types[0]).toBe('start');
      expect(types.at(-1)).toBe('finish');
      expect(types.indexOf('tool-output-available')).toBeLessThan(types.indexOf('tool-approval-request'));
      expect(types).toContain('tool-input-available');
      // Ids increase: the chunks came in the order the worker kept them.
      const ids = first.map((entry) => entry.id.split(':').map(Number));
      for (let index = 1; index < ids.length; index += 1)
        expect(ids[index][0] * 1000 + ids[index][1]).toBeGreaterThan(ids[index - 1][0] * 1000 + ids[index - 1][1]);

      // The approval is decided; the worker resumes the run; the web process follows on after its last id.
      const record = await web.loadRun(runId);
      const pending = record!.approvals.find((approval) => approval.state === 'pending')!;
      const following = followUIMessageStream(web, runId, { lastEventId: first.at(-1)!.id });
      await f.queue.decideApproval(runId, pending.callId, { approved: true, decidedBy: 'web-user' });
      const second = await readAll((await following)!);
      const text = second
        .map((entry) => entry.chunk)
        .flatMap((chunk) => (chunk.type === 'text-delta' ? [chunk.delta] : []))
        .join('');
      expect(text).toBe('Refunded order A-1 (25.00).');
      expect(second.at(-1)!.chunk).toMatchObject({ type: 'finish', messageMetadata: { stopReason: 'end_turn' } });
      expect(second.some((entry) => first.some((earlier) => earlier.id === entry.id))).toBe(false);
      expect(executions.refund).toBe(1);
    } finally {
      await worker.stop();
      await web.close();
    }
  });
});
