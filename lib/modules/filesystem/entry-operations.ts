import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { errnoOf, toFilesystemError } from './errno-mapping';
import { resolveExisting, resolveParent } from './confined-path';
import { withConfinedDirectory } from './confined-directory';
import { entryTypeOf } from './entry-type';
import { FilesystemCall, FilesystemOperationResult, displayPath, requireApproval, throwIfCancelled } from './filesystem-call';
import { FilesystemError } from './filesystem-error';
import { splitRelativePath } from './path-rules';

/** `stat`: type, size, mode, link count and modification time; links inside the root are followed. */
export async function statEntry(call: FilesystemCall): Promise<FilesystemOperationResult> {
  const { policy, args } = call;
  const raw = args.raw('path') ?? '.';
  const display = displayPath(raw);
  const resolved = await resolveExisting(policy.root, splitRelativePath(raw), display);
  const inspect = (target: string) =>
    fs.lstat(target).catch((error: unknown) => {
      throw toFilesystemError(error, display, 'inspect');
    });
  // Through a checked handle of the parent, so a parent swapped for a link after resolution is refused.
  const stats =
    resolved.real === policy.root
      ? await inspect(resolved.real)
      : await withConfinedDirectory(policy.root, path.dirname(resolved.real), display, (directory) => inspect(path.join(directory, path.basename(resolved.real))));
  return {
    data: {
      path: display,
      type: entryTypeOf(stats),
      size: stats.size,
      mode: (stats.mode & 0o7777).toString(8).padStart(4, '0'),
      links: stats.nlink,
      modifiedAt: stats.mtime.toISOString(),
    },
  };
}

/**
 * `move`: renames `from` to `to`, both inside the root. The last component of `from` is not
 * followed (a link is moved as a link). An existing target is refused (`already_exists`) unless
 * `overwrite` is set, which is destructive and asks the approval hook.
 */
export async function moveEntry(call: FilesystemCall): Promise<FilesystemOperationResult> {
  const { policy, args } = call;
  const fromDisplay = displayPath(args.raw('from'));
  const toDisplay = displayPath(args.raw('to'));
  const from = await resolveParent(policy.root, splitRelativePath(args.raw('from'), 'from'), fromDisplay);
  const to = await resolveParent(policy.root, splitRelativePath(args.raw('to'), 'to'), toDisplay);
  const overwrite = args.boolean('overwrite', false);
  await fs.lstat(from.target).catch((error: unknown) => {
    throw toFilesystemError(error, fromDisplay, 'move');
  });
  const existing = await fs.lstat(to.target).catch((error: unknown) => {
    if (errnoOf(error) === 'ENOENT') return undefined;
    throw toFilesystemError(error, toDisplay, 'inspect');
  });
  if (existing !== undefined) {
    if (!overwrite) throw new FilesystemError('already_exists', `'${toDisplay}' already exists; pass overwrite: true to replace it.`, toDisplay);
    await requireApproval(call, fromDisplay, toDisplay);
  }
  throwIfCancelled(call);
  // The parents are opened again after the approval, which may have taken long: see withConfinedDirectory.
  await withConfinedDirectory(policy.root, from.parent, fromDisplay, (fromDirectory) =>
    withConfinedDirectory(policy.root, to.parent, toDisplay, (toDirectory) =>
      fs.rename(path.join(fromDirectory, from.name), path.join(toDirectory, to.name)).catch((error: unknown) => {
        throw toFilesystemError(error, `${fromDisplay} -> ${toDisplay}`, 'move');
      }),
    ),
  );
  return { data: { from: fromDisplay, to: toDisplay, replaced: existing !== undefined } };
}

/**
 * `delete`: removes a file, a link (never its target) or an empty directory; a non-empty
 * directory only with `recursive`. Destructive: asks the approval hook first. The root itself
 * cannot be deleted.
 */
export async function deleteEntry(call: FilesystemCall): Promise<FilesystemOperationResult> {
  const { policy, args } = call;
  const display = displayPath(args.raw('path'));
  const entry = await resolveParent(policy.root, splitRelativePath(args.raw('path')), display);
  const recursive = args.boolean('recursive', false);
  const stats = await fs.lstat(entry.target).catch((error: unknown) => {
    throw toFilesystemError(error, display, 'delete');
  });
  await requireApproval(call, display);
  throwIfCancelled(call);
  // The parent is opened again after the approval, which may have taken long: see withConfinedDirectory.
  await withConfinedDirectory(policy.root, entry.parent, display, async (directory) => {
    const target = path.join(directory, entry.name);
    const removal = stats.isDirectory() ? (recursive ? fs.rm(target, { recursive: true }) : fs.rmdir(target)) : fs.unlink(target);
    await removal.catch((error: unknown) => {
      throw toFilesystemError(error, display, 'delete');
    });
  });
  return { data: { path: display, type: entryTypeOf(stats), deleted: true } };
}
