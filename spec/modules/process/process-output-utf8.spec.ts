import { ProcessToolkit } from '../../../lib/modules/process';
import { EXECUTABLES, ProcessSandbox, makeProcessSandbox, runData } from './process-sandbox';

describe('ProcessToolkit output caps keep UTF-8 whole', () => {
  let box: ProcessSandbox;
  beforeEach(async () => {
    box = await makeProcessSandbox();
  });
  afterEach(() => box.cleanup());

  // 'é' is 2 bytes, '€' 3, '😀' 4: every cap from 1 to 12 cuts some of them inside a sequence.
  it.each(['é', '€', '😀'])('never cuts inside a multi-byte sequence of %s, on stdout or stderr', async (character) => {
    for (let cap = 1; cap <= 12; cap += 1) {
      const toolkit = new ProcessToolkit({
        root: box.root,
        executables: EXECUTABLES,
        maxStdoutBytes: cap,
        maxStderrBytes: cap,
      });
      const text = `a${character.repeat(20)}`;
      const data = runData(
        await toolkit.invoke('process_run', {
          executable: 'sh',
          args: ['-c', 'printf %s "$1"; printf %s "$1" >&2', 'sh', text],
        }),
      );
      for (const stream of [data.stdout as string, data.stderr as string]) {
        expect(stream).not.toContain('\uFFFD');
        expect(Buffer.byteLength(stream)).toBeLessThanOrEqual(cap);
        expect(text.startsWith(stream)).toBe(true);
        expect(Buffer.byteLength(stream)).toBeGreaterThan(cap - Buffer.byteLength(character));
      }
      expect(data).toMatchObject({ stdoutTruncated: true, stderrTruncated: true });
    }
  });

  it('keeps a replacement character that was in the output, and invalid bytes of the output itself', async () => {
    const toolkit = new ProcessToolkit({ root: box.root, executables: EXECUTABLES, maxStdoutBytes: 100 });
    const data = runData(
      await toolkit.invoke('process_run', { executable: 'sh', args: ['-c', "printf 'x\\357\\277\\275y\\303'"] }),
    );
    expect(data.stdout).toBe('x\uFFFDy\uFFFD');
    expect(data.stdoutTruncated).toBe(false);
  });
});
