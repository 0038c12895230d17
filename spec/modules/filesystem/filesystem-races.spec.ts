import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { FilesystemToolkit } from '../../../lib/modules/filesystem';
import { DirectoryFlipper, flipDirectory } from './racer';
import { Sandbox, makeSandbox } from './sandbox';

/** Names of `directory`, sorted. */
const namesIn = async (directory: string): Promise<string[]> => (await fs.readdir(directory)).sort();

/** Iterations per race; each call is one chance for the second process to win. */
const ROUNDS = 400;
/** Generous: each race makes a few thousand calls, on a machine that may be busy. */
const RACE_TIMEOUT_MS = 180_000;

describe('FilesystemToolkit against a second process flipping a directory to a link to outside', () => {
  let box: Sandbox;
  let toolkit: FilesystemToolkit;
  let flipper: DirectoryFlipper | undefined;
  beforeEach(async () => {
    box = await makeSandbox();
    toolkit = new FilesystemToolkit({ root: box.root });
    await fs.mkdir(path.join(box.root, 'd'));
  });
  afterEach(async () => {
    await flipper?.stop();
    flipper = undefined;
    await box.cleanup();
  });

  it(
    'mkdir never removes (nor creates) a directory outside the root',
    async () => {
      const victims = Array.from({ length: ROUNDS }, (_, index) => `v${index}`);
      for (const victim of victims) await fs.mkdir(path.join(box.outside, victim));
      const codes = new Set<string>();
      flipper = await flipDirectory(path.join(box.root, 'd'), box.outside);
      for (const [index, victim] of victims.entries()) {
        const outcome = await toolkit.invoke('fs_mkdir', { path: `d/${victim}`, recursive: index % 2 === 1 });
        codes.add(outcome.ok ? 'ok' : String((outcome.error?.details as { reason?: string } | undefined)?.reason));
      }
      await flipper.stop();
      flipper = undefined;
      await expect(namesIn(box.outside)).resolves.toEqual([...victims, 'secret.txt'].sort());
      for (const victim of victims) await expect(namesIn(path.join(box.outside, victim))).resolves.toEqual([]);
      expect(
        [...codes].filter((code) => !['ok', 'symlink_escape', 'not_found', 'already_exists'].includes(code)),
      ).toEqual([]);
    },
    RACE_TIMEOUT_MS,
  );

  it(
    'write, append and move through an in-root link to d/target never create anything outside',
    async () => {
      for (let index = 0; index < ROUNDS; index += 1) {
        await fs.writeFile(path.join(box.root, 'd', `t${index}.txt`), 'inside');
        await fs.symlink(`d/t${index}.txt`, path.join(box.root, `l${index}`));
        await fs.writeFile(path.join(box.root, `m${index}.txt`), 'moved');
      }
      flipper = await flipDirectory(path.join(box.root, 'd'), box.outside);
      for (let index = 0; index < ROUNDS; index += 1) {
        const tool = ['fs_write', 'fs_append'][index % 2];
        await toolkit.invoke(tool, { path: `l${index}`, content: 'x' });
        await toolkit.invoke('fs_move', { from: `m${index}.txt`, to: `d/n${index}.txt` });
        await toolkit.invoke('fs_write', { path: `d/w${index}.txt`, content: 'x' });
      }
      await flipper.stop();
      flipper = undefined;
      await expect(namesIn(box.outside)).resolves.toEqual(['secret.txt']);
      await expect(fs.readFile(path.join(box.outside, 'secret.txt'), 'utf8')).resolves.toBe('outside secret');
    },
    RACE_TIMEOUT_MS,
  );

  it(
    'delete and recursive delete never remove anything outside',
    async () => {
      await fs.writeFile(path.join(box.outside, 'keep.txt'), 'keep');
      await fs.mkdir(path.join(box.outside, 'tree'));
      await fs.writeFile(path.join(box.outside, 'tree', 'keep.txt'), 'keep');
      for (let index = 0; index < ROUNDS / 4; index += 1) {
        await fs.mkdir(path.join(box.root, 'd', 'tree', 'sub'), { recursive: true });
        await fs.writeFile(path.join(box.root, 'd', 'tree', 'sub', 'f.txt'), 'x');
        await fs.writeFile(path.join(box.root, 'd', 'keep.txt'), 'x');
      }
      const deleter = new FilesystemToolkit({ root: box.root, approve: () => true });
      flipper = await flipDirectory(path.join(box.root, 'd'), box.outside);
      for (let index = 0; index < ROUNDS / 4; index += 1) {
        await deleter.invoke('fs_delete', { path: 'd/keep.txt' });
        await deleter.invoke('fs_delete', { path: 'd/tree', recursive: true });
      }
      await flipper.stop();
      flipper = undefined;
      await expect(namesIn(box.outside)).resolves.toEqual(['keep.txt', 'secret.txt', 'tree']);
      await expect(namesIn(path.join(box.outside, 'tree'))).resolves.toEqual(['keep.txt']);
    },
    RACE_TIMEOUT_MS,
  );
});
