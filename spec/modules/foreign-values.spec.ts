import { ProcessToolkit } from '../../lib/modules/process';
import { makeProcessSandbox, ProcessSandbox, EXECUTABLES } from './process/process-sandbox';

describe('toolkits describe foreign values without throwing', () => {
  let box: ProcessSandbox;
  beforeEach(async () => {
    box = await makeProcessSandbox();
  });
  afterEach(() => box.cleanup());

  it('answers a failure, not a rejection, for an argument whose String() throws', async () => {
    const toolkit = new ProcessToolkit({ root: box.root, executables: EXECUTABLES });
    const outcome = await toolkit.invokeTool({
      toolName: 'process_run',
      arguments: { executable: 'echo', args: [Object.create(null)] },
    } as never);
    expect(outcome.ok).toBe(false);
    expect(toolkit.auditLog).toHaveLength(1);
  });

  it('withholds the result with tool_error when the audit sink throws a null-prototype object', async () => {
    const toolkit = new ProcessToolkit({
      root: box.root,
      executables: EXECUTABLES,
      audit: () => {
        throw Object.create(null);
      },
    });
    const outcome = await toolkit.invoke('process_run', { executable: 'echo', args: ['hi'] });
    expect(outcome.error).toMatchObject({ code: 'tool_error' });
    expect(outcome.error?.message).toContain('[object Object]');
  });
});
