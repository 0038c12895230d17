import 'reflect-metadata';
import { canonicalArgumentsSha256 } from '../../lib/durable';
import { Contract, Field, LlmAgentRunner, ScriptedModelClient, Tool, ToolRegistry } from '../../lib';
import { describePostgres, TestSchemas } from '../durable/postgres-env';
import { openQueueFixture, QueueFixture } from './queue-fixture';

jest.setTimeout(60_000);
const schemas = new TestSchemas();
let fixture: QueueFixture | undefined;
afterAll(async () => {
  await fixture?.close().catch(() => undefined);
  await schemas.dropAll();
});

@Tool({ description: 'Refund an order.' })
@Contract({ sideEffect: 'write', idempotency: 'idempotent', approval: 'always' })
class Refund {
  @Field() order!: string;
  invoke(): string {
    return `refunded ${this.order}`;
  }
}

describePostgres('RunQueue.decideApproval with a call id reused across turns', () => {
  it('decides the pending approval of the latest turn, not the decided one of an earlier turn', async () => {
    const f = (fixture = await openQueueFixture(schemas));
    const runId = 'reused-approval';
    const runner = new LlmAgentRunner(
      new ScriptedModelClient([
        { toolCalls: [{ id: 'call_0', name: 'Refund', arguments: { order: 'A' } }] },
        { toolCalls: [{ id: 'call_0', name: 'Refund', arguments: { order: 'B' } }] },
        { text: 'done' },
      ]),
      new ToolRegistry([Refund]),
    );
    // Created as RunQueue.enqueue creates a run; the test drives it in process instead of through a worker.
    await f.store.createRun({
      runId,
      status: 'running',
      metadata: { queue: { agent: 'refunds', maxSteps: null } },
      messages: [{ role: 'user', content: 'refund A and B' }],
    });
    expect((await runner.resume(runId, { store: f.store })).stopReason).toBe('awaiting_approval');
    await f.queue.decideApproval(runId, 'call_0', { approved: true, decidedBy: 'ops' });
    expect((await runner.resume(runId, { store: f.store })).stopReason).toBe('awaiting_approval');

    const decided = await f.queue.decideApproval(runId, 'call_0', {
      approved: false,
      decidedBy: 'ops',
      reason: 'B stays',
    });
    expect(decided.approval).toMatchObject({
      turn: 2,
      state: 'denied',
      argumentsSha256: canonicalArgumentsSha256({ order: 'B' }),
    });
    const record = await f.store.loadRun(runId);
    expect(record?.approvals.map((approval) => [approval.turn, approval.callId, approval.state])).toEqual([
      [1, 'call_0', 'approved'],
      [2, 'call_0', 'denied'],
    ]);
  });
});
