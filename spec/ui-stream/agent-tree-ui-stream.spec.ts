import { readUIMessageStream } from 'ai';
import { toUIMessageStream, WuweUIMessage } from '../../lib/ui-stream';
import { agentTree } from '../agents/agent-tree';
import { makeTempDir } from '../durable/temp-dir';

jest.setTimeout(60_000);

describe('toUIMessageStream() of a run with agent tools', () => {
  const dir = makeTempDir('ui-tree');
  afterAll(() => dir.cleanup());

  it("tells the run's own steps and tool parts; the child runs' events (agent_event) add no part", async () => {
    const runStream = agentTree(dir.path, { approvalHandler: () => ({ approved: true }) }).stream('go');
    let message: WuweUIMessage | undefined;
    for await (const value of readUIMessageStream<WuweUIMessage>({
      stream: toUIMessageStream(runStream),
      terminateOnError: true,
    }))
      message = value;
    const result = await runStream.result;
    expect(result.stopReason).toBe('end_turn');
    const toolParts = message!.parts.filter((part) => part.type.startsWith('tool-')).map((part) => part.type);
    expect(toolParts.sort()).toEqual(['tool-delegate', 'tool-notify']);
    expect(message!.parts.filter((part) => part.type === 'step-start')).toHaveLength(2);
    const delegate = message!.parts.find((part) => part.type === 'tool-delegate');
    expect(delegate).toMatchObject({ state: 'output-available' });
    expect(JSON.stringify(delegate)).toContain('child done');
  });
});
