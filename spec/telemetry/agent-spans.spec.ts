import { join } from 'node:path';
import { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { SqliteRunStore } from '../../lib/durable/sqlite';
import { agentTree, approveAll } from '../agents/agent-tree';
import { makeTempDir } from '../durable/temp-dir';
import { TelemetryHarness, telemetryHarness } from './support';

const temps: { cleanup: () => void }[] = [];
afterAll(() => temps.forEach((temp) => temp.cleanup()));

function tempDir(): string {
  const temp = makeTempDir('agent-spans');
  temps.push(temp);
  return temp.path;
}

function parentIdOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}

describe('wuwe/telemetry: agent tool trees', () => {
  let harness: TelemetryHarness;
  afterEach(async () => harness.shutdown());

  it("a child's invoke_agent span is a child of the parent's execute_tool span of the agent tool call, at each level", async () => {
    harness = telemetryHarness({ agentName: 'parent' });
    const root = agentTree(tempDir());
    const result = await root.complete(
      'go',
      harness.telemetry.runOptions({ approvalHandler: () => ({ approved: true }) }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(result.stopReason).toBe('end_turn');

    const parentRun = harness.span('invoke_agent parent');
    const delegateCall = harness.span('execute_tool delegate');
    const childRun = harness.span('invoke_agent delegate');
    const cleanupCall = harness.span('execute_tool cleanup');
    const grandchildRun = harness.span('invoke_agent cleanup');
    const leafCall = harness.span('execute_tool delete_file');
    expect(parentIdOf(parentRun)).toBeUndefined();
    expect(parentIdOf(delegateCall)).toBe(parentRun.spanContext().spanId);
    expect(parentIdOf(childRun)).toBe(delegateCall.spanContext().spanId);
    expect(parentIdOf(cleanupCall)).toBe(childRun.spanContext().spanId);
    expect(parentIdOf(grandchildRun)).toBe(cleanupCall.spanContext().spanId);
    expect(parentIdOf(leafCall)).toBe(grandchildRun.spanContext().spanId);
    // One trace for the whole tree; the child's spans carry its own run id and the tool's name as the agent's.
    const traceIds = new Set(harness.spans().map((span) => span.spanContext().traceId));
    expect(traceIds.size).toBe(1);
    expect(childRun.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'delegate',
      'wuwe.run.stop_reason': 'end_turn',
    });
    expect(childRun.attributes['wuwe.run.id']).not.toBe(result.runId);
    // The child's model steps are chat spans under its run span.
    const childChats = harness
      .spans()
      .filter((span) => span.name === 'chat' && parentIdOf(span) === childRun.spanContext().spanId);
    expect(childChats).toHaveLength(2);
    // Every span ended inside its parent.
    for (const [inner, outer] of [
      [childRun, delegateCall],
      [grandchildRun, cleanupCall],
    ])
      expect(inner.endTime[0] * 1e9 + inner.endTime[1]).toBeLessThanOrEqual(outer.endTime[0] * 1e9 + outer.endTime[1]);
  });

  it('a durable tree resumed after approvals: each resume traces the child under the resumed agent tool call', async () => {
    harness = telemetryHarness({ agentName: 'parent' });
    const dir = tempDir();
    const store = new SqliteRunStore(join(dir, 'runs.db'));
    try {
      const root = agentTree(dir, { store });
      let result = await root.complete('go', harness.telemetry.runOptions({ runId: 'tree' }));
      for (let round = 0; result.stopReason === 'awaiting_approval' && round < 5; round++) {
        const waiting = ['tree', ...(await store.listRuns()).map((run) => run.runId).filter((id) => id !== 'tree')];
        await approveAll(store, waiting);
        result = await root.resume('tree', harness.telemetry.runOptions());
      }
      await new Promise((resolve) => setImmediate(resolve));
      expect(result.stopReason).toBe('end_turn');
      const spans = harness.spans();
      const byId = new Map(spans.map((span) => [span.spanContext().spanId, span]));
      const childRuns = spans.filter((span) => span.name === 'invoke_agent delegate');
      // The child ran in two resumes of the root (waiting on `cleanup`, then done).
      expect(childRuns.length).toBeGreaterThanOrEqual(2);
      for (const child of childRuns) expect(byId.get(parentIdOf(child)!)?.name).toBe('execute_tool delegate');
      for (const grandchild of spans.filter((span) => span.name === 'invoke_agent cleanup'))
        expect(byId.get(parentIdOf(grandchild)!)?.name).toBe('execute_tool cleanup');
    } finally {
      await store.close();
    }
  });
});
