import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { readRecordKeyFile } from '../../lib/cli/record-key-file';
import { makeTempDir } from '../durable/temp-dir';
import { runCli } from './cli-harness';

const KEY = { id: 'ops-1', key: 'a record key of more than sixteen bytes' };
const LIMIT = 1024 * 1024;
/** FIFOs and /dev/zero are POSIX things. */
const posix = process.platform === 'win32' ? it.skip : it;

describe('the --key-file of wuwe', () => {
  const dir = makeTempDir('cli-key-file');
  const at = (name: string): string => join(dir.path, name);

  beforeAll(() => fs.writeFileSync(at('key.json'), JSON.stringify(KEY)));
  afterEach(() => jest.restoreAllMocks());
  afterAll(() => dir.cleanup());

  /** Spies on every way of reading a file: `readsOf(path)` are the reads of `path`, by name or by descriptor. */
  const spyReads = (): ((path: string) => unknown[]) => {
    const readFile = jest.spyOn(fs, 'readFileSync');
    const read = jest.spyOn(fs, 'readSync');
    return (path) => [...readFile.mock.calls.filter(([file]) => String(file).endsWith(path)), ...read.mock.calls];
  };

  /** `wuwe audit verify` with the key file, as the CLI reports it (the keys are read before the export). */
  const verifyWith = async (keyFile: string): Promise<{ code: number; error: { code: string; message: string } }> => {
    const result = await runCli(['audit', 'verify', '--file', 'run.jsonl', '--key-file', keyFile, '--json'], dir.path);
    expect(result.stdout).toBe('');
    return { code: result.code, error: JSON.parse(result.stderr).error };
  };

  posix('refuses a FIFO promptly as a usage error, without waiting for a writer', async () => {
    fs.rmSync(at('fifo'), { force: true });
    execFileSync('mkfifo', [at('fifo')]);
    // Should the read block on the FIFO, this writer ends it after 3 s, so the spec fails instead of hanging.
    const writer = spawn(process.execPath, [
      '-e',
      `setTimeout(() => require('fs').writeFileSync(${JSON.stringify(at('fifo'))}, ''), 3000)`,
    ]);
    try {
      const started = Date.now();
      const { code, error } = await verifyWith('fifo');
      expect(Date.now() - started).toBeLessThan(2000);
      expect({ code, error }).toEqual({
        code: 2,
        error: {
          code: 'usage',
          message: `the key file ${at('fifo')} is a FIFO (named pipe), not a regular file`,
          exitCode: 2,
        },
      });
    } finally {
      writer.kill();
    }
  });

  posix('refuses /dev/zero as a usage error without reading it', async () => {
    const readsOf = spyReads();
    expect(await verifyWith('/dev/zero')).toEqual({
      code: 2,
      error: {
        code: 'usage',
        message: 'the key file /dev/zero is a character device, not a regular file',
        exitCode: 2,
      },
    });
    expect(readsOf('/dev/zero')).toEqual([]);
  });

  posix('refuses a socket, which cannot even be opened, as a usage error naming it', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(at('key.sock'), resolve));
    try {
      expect(await verifyWith('key.sock')).toEqual({
        code: 2,
        error: {
          code: 'usage',
          message: `the key file ${at('key.sock')} is a socket, not a regular file`,
          exitCode: 2,
        },
      });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('refuses a directory as a usage error', async () => {
    fs.mkdirSync(at('keys'), { recursive: true });
    expect(await verifyWith('keys')).toEqual({
      code: 2,
      error: { code: 'usage', message: `the key file ${at('keys')} is a directory, not a regular file`, exitCode: 2 },
    });
  });

  it('refuses a file over 1 MiB from its size, reading none of it', async () => {
    // Sparse: 300 MB that cost no disk.
    fs.writeFileSync(at('huge.json'), '');
    fs.truncateSync(at('huge.json'), 300 * 1024 * 1024);
    const readsOf = spyReads();
    expect(await verifyWith('huge.json')).toEqual({
      code: 2,
      error: { code: 'usage', message: `the key file ${at('huge.json')} is larger than ${LIMIT} bytes`, exitCode: 2 },
    });
    expect(readsOf('huge.json')).toEqual([]);
    fs.writeFileSync(at('just-over.json'), Buffer.alloc(LIMIT + 1, ' '));
    expect((await verifyWith('just-over.json')).error.message).toMatch(/is larger than 1048576 bytes$/);
  });

  it('reads at most the limit and one byte of a file that grows after its size was taken', () => {
    fs.writeFileSync(at('growing.json'), Buffer.alloc(5 * LIMIT, ' '));
    const fstat = fs.fstatSync;
    jest.spyOn(fs, 'fstatSync').mockImplementationOnce((fd) => ({ ...fstat(fd), isFile: () => true, size: 10 }));
    const read = jest.spyOn(fs, 'readSync');
    expect(() => readRecordKeyFile(dir.path, 'growing.json')).toThrow(`is larger than ${LIMIT} bytes`);
    const bytes = read.mock.results.reduce((sum, result) => sum + (result.value as number), 0);
    expect(bytes).toBe(LIMIT + 1);
  });

  it('reads a valid key file, and one through a symbolic link', () => {
    expect(readRecordKeyFile(dir.path, 'key.json')).toEqual([KEY]);
    fs.symlinkSync(at('key.json'), at('link.json'));
    expect(readRecordKeyFile(dir.path, 'link.json')).toEqual([KEY]);
  });

  it('keeps a missing file not_found and a malformed one a usage error', async () => {
    const missing = await runCli(['audit', 'verify', '--file', 'run.jsonl', '--key-file', 'missing.json'], dir.path);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(/^wuwe: cannot read the key file .*missing\.json: ENOENT/);
    fs.writeFileSync(at('bad.json'), `{"id":"k","key":"${KEY.key}"`);
    expect(await verifyWith('bad.json')).toEqual({
      code: 2,
      error: { code: 'usage', message: `the key file ${at('bad.json')} is not JSON`, exitCode: 2 },
    });
  });
});
