import { join } from 'node:path';
import { LlmAgentEvent } from '../../lib';
import { NestedAgentEvent } from '../../lib/agents';
import { SqliteRunStore } from '../../lib/durable/sqlite';
import type { ChildAgentEvent } from '../../lib/runner';
import { makeTempDir } from '../durable/temp-dir';
import { agentTree } from './agent-tree';

const temps: { cleanup: () => void }[] = [];
afterAll(() => temps.forEach((temp) => temp.cleanup()));

function tempDir(): string {
  const temp = makeTempDir('agent-events');
  temps.push(temp);
  return temp.path;
}

const approveAll = { approvalHandler: () => ({ approved: true, decidedBy: 'test' }) };

/** `type@path` of an event: `run_started@delegate>cleanup` for a grandchild's, `run_started` for the run's own. */
function label(event: { type: string; agent?: readonly string[] }): string {
  return event.agent === undefined ? event.type : `${event.type}@${event.agent.join('>')}`;
}

function flatten(event: LlmAgentEvent): string {
  return event.type === 'agent_event' ? label({ type: event.event.type, agent: event.agent }) : event.type;
}

describe('child events in the parent run', () => {
  it("stream(): a three-level tree's events come nested, in order, inside the agent tool call that started each child", async () => {
    const root = agentTree(tempDir(), approveAll);
    const seen: string[] = [];
    const streamed: string[] = [];
    const nested: ChildAgentEvent[] = [];
    const stream = root.stream('go', { runId: 'tree', onEvent: (event) => void seen.push(flatten(event)) });
    for await (const event of stream) {
      if (event.type === 'agent_event') {
        nested.push(event);
        streamed.push(label({ type: event.event.type, agent: event.agent }));
      } else if (event.type === 'tool_call_started' || event.type === 'tool_call_finished')
        streamed.push(`${event.type}:${event.toolName}`);
      else streamed.push(event.type);
    }
    const result = await stream.result;
    expect(result.stopReason).toBe('end_turn');
    expect(result.text).toContain('grandchild done: delete_file done');

    // The parent's own events are as before: the first and last are its own run's.
    expect(streamed[0]).toBe('run_started');
    expect(streamed.at(-1)).toBe('run_finished');
    // Each child's events lie between the agent tool call's start and finish, the grandchild's inside the child's.
    const at = (entry: string): number => streamed.indexOf(entry);
    expect(at('tool_call_started:delegate')).toBeLessThan(at('run_started@delegate'));
    expect(at('run_started@delegate')).toBeLessThan(at('run_started@delegate>cleanup'));
    expect(at('run_started@delegate>cleanup')).toBeLessThan(at('tool_call_finished@delegate>cleanup'));
    expect(at('tool_call_finished@delegate>cleanup')).toBeLessThan(at('run_finished@delegate>cleanup'));
    expect(at('run_finished@delegate>cleanup')).toBeLessThan(at('run_finished@delegate'));
    expect(at('run_finished@delegate')).toBeLessThan(at('tool_call_finished:delegate'));

    // The path names each level's call and run; the child's own event keeps the child's run id.
    const leaf = nested.find(
      (event) => event.event.type === 'tool_call_finished' && event.event.toolName === 'delete_file',
    )!;
    expect(leaf.runId).toBe('tree');
    expect(leaf.agent).toEqual(['delegate', 'cleanup']);
    const [toChild, toGrandchild] = leaf.calls;
    expect(toChild).toMatchObject({ runId: 'tree', turn: 1, callId: 'call_delegate', toolName: 'delegate' });
    expect(toGrandchild).toMatchObject({
      runId: toChild.childRunId,
      turn: 1,
      callId: 'call_cleanup',
      toolName: 'cleanup',
    });
    expect(leaf.event.runId).toBe(toGrandchild.childRunId);
    expect(toGrandchild.childRunId).not.toBe(toChild.childRunId);

    // onEvent saw the same nested events, in the same order.
    const nestedSeen = seen.filter((entry) => entry.includes('@'));
    expect(nestedSeen).toEqual(streamed.filter((entry) => entry.includes('@')));
    expect(nestedSeen.length).toBeGreaterThan(10);
  });

  it('a durable tree: the calls of the path name the stored child runs and the calls that started them', async () => {
    const dir = tempDir();
    const store = new SqliteRunStore(join(dir, 'runs.db'));
    try {
      const root = agentTree(dir, { store, ...approveAll }, {});
      const events: LlmAgentEvent[] = [];
      const result = await root.complete('go', { runId: 'tree', onEvent: (event) => void events.push(event) });
      expect(result.stopReason).toBe('end_turn');
      const leaf = events.find(
        (event): event is ChildAgentEvent => event.type === 'agent_event' && event.agent.length === 2,
      )!;
      for (const link of leaf.calls)
        expect((await store.loadRun(link.childRunId))!.metadata).toMatchObject({
          parentRunId: link.runId,
          parentCallId: link.callId,
          agent: link.toolName,
        });
    } finally {
      await store.close();
    }
  });

  it("the agent tool's own onEvent receives the grandchild's events too, flat, with the full path below it", async () => {
    const flat: string[] = [];
    const root = agentTree(tempDir(), approveAll, {
      delegate: { onEvent: (event: NestedAgentEvent) => void flat.push(label(event)) },
    });
    await root.complete('go');
    expect(flat[0]).toBe('run_started@delegate');
    expect(flat).toContain('run_started@delegate>cleanup');
    expect(flat).toContain('tool_call_finished@delegate>cleanup');
    expect(flat.at(-1)).toBe('run_finished@delegate');
    expect(flat.every((entry) => entry.endsWith('@delegate') || entry.endsWith('@delegate>cleanup'))).toBe(true);
  });
});
