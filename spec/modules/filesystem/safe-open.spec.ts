import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { FilesystemError } from '../../../lib/modules/filesystem';
import { resolveExisting } from '../../../lib/modules/filesystem/confined-path';
import { openConfinedFile } from '../../../lib/modules/filesystem/safe-open';
import { Sandbox, makeSandbox } from './sandbox';

describe('openConfinedFile (swap after check)', () => {
  let box: Sandbox;
  beforeEach(async () => {
    box = await makeSandbox();
  });
  afterEach(() => box.cleanup());

  it('refuses a file swapped for a symlink to outside after resolution', async () => {
    const file = path.join(box.root, 'file.txt');
    await fs.writeFile(file, 'inside');
    const resolved = await resolveExisting(box.root, ['file.txt'], 'file.txt');
    await fs.rm(file);
    await fs.symlink(path.join(box.outside, 'secret.txt'), file);
    const opening = openConfinedFile(box.root, resolved.real, 'file.txt', 'read');
    await expect(opening).rejects.toBeInstanceOf(FilesystemError);
    await expect(opening).rejects.toMatchObject({ code: 'symlink_escape' });
  });

  it('refuses a parent directory swapped for a symlink to outside after resolution', async () => {
    await fs.mkdir(path.join(box.root, 'dir'));
    await fs.writeFile(path.join(box.root, 'dir', 'secret.txt'), 'inside');
    const resolved = await resolveExisting(box.root, ['dir', 'secret.txt'], 'dir/secret.txt');
    await fs.rename(path.join(box.root, 'dir'), path.join(box.root, 'moved'));
    await fs.symlink(box.outside, path.join(box.root, 'dir'));
    await expect(openConfinedFile(box.root, resolved.real, 'dir/secret.txt', 'read')).rejects.toMatchObject({
      code: 'symlink_escape',
    });
    await expect(openConfinedFile(box.root, resolved.real, 'dir/secret.txt', 'write')).rejects.toMatchObject({
      code: 'symlink_escape',
    });
    expect(await fs.readFile(path.join(box.outside, 'secret.txt'), 'utf8')).toBe('outside secret');
  });

  it('refuses creating a file whose parent was swapped for a symlink to outside', async () => {
    await fs.mkdir(path.join(box.root, 'dir'));
    const resolved = await resolveExisting(box.root, ['dir'], 'dir');
    await fs.rename(path.join(box.root, 'dir'), path.join(box.root, 'moved'));
    await fs.symlink(box.outside, path.join(box.root, 'dir'));
    await expect(
      openConfinedFile(box.root, path.join(resolved.real, 'new.txt'), 'dir/new.txt', 'write', true),
    ).rejects.toMatchObject({
      code: 'symlink_escape',
    });
    await expect(fs.readdir(box.outside)).resolves.toEqual(['secret.txt']);
  });
});
