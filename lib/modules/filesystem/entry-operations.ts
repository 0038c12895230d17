import { promises as fs } from 'node:fs';
import { toFilesystemError } from './errno-mapping';
import { entryTypeOf } from './entry-type';
import {
  FilesystemCall,
  FilesystemOperationResult,
  displayPath,
  pathComponents,
  requireApproval,
  throwIfCancelled,
} from './filesystem-call';
import { FilesystemError } from './filesystem-error';
import { EntryInDirectory, openEntry, openParent } from './handle-walk';
import { removeEntry } from './handle-removal';
import { withheldReason } from './withheld-metadata';

/**
 * `stat`: type, size, mode, link count and modification time; links inside the root are followed.
 * The entry is inspected through a checked handle of its directory. For a non-directory with several
 * hard links, size, mode and time are withheld (`withheld: 'hard_link'`).
 */
export async function statEntry(call: FilesystemCall): Promise<FilesystemOperationResult> {
  const { policy, args } = call;
  const raw = args.raw('path') ?? '.';
  const display = displayPath(raw);
  const entry = await openEntry(policy.confinedRoot, pathComponents(call, 'path', raw), display);
  await entry.directory.close();
  const stats = entry.stats;
  if (stats === undefined) throw new FilesystemError('not_found', `'${display}' does not exist.`, display);
  const type = entryTypeOf(stats);
  const withheld = withheldReason(stats);
  if (withheld !== undefined) return { data: { path: display, type, links: stats.nlink, withheld } };
  return {
    data: {
      path: display,
      type,
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
 * `overwrite` is set, which is destructive and asks the approval hook. Both parents are walked again
 * after the approval and the rename goes between their checked handles.
 */
export async function moveEntry(call: FilesystemCall): Promise<FilesystemOperationResult> {
  const { args } = call;
  const fromDisplay = displayPath(args.raw('from'));
  const toDisplay = displayPath(args.raw('to'));
  const fromComponents = pathComponents(call, 'from');
  const toComponents = pathComponents(call, 'to');
  const overwrite = args.boolean('overwrite', false);
  const existing = await withParents(call, fromComponents, toComponents, fromDisplay, toDisplay, async (from, to) => {
    if (from.stats === undefined)
      throw new FilesystemError('not_found', `Cannot move '${fromDisplay}': it does not exist.`, fromDisplay);
    return to.stats !== undefined;
  });
  if (existing) {
    if (!overwrite)
      throw new FilesystemError(
        'already_exists',
        `'${toDisplay}' already exists; pass overwrite: true to replace it.`,
        toDisplay,
      );
    await requireApproval(call, fromDisplay, toDisplay);
  }
  throwIfCancelled(call);
  await withParents(call, fromComponents, toComponents, fromDisplay, toDisplay, (from, to) =>
    fs.rename(from.directory.at(from.name), to.directory.at(to.name)).catch((error: unknown) => {
      throw toFilesystemError(error, `${fromDisplay} -> ${toDisplay}`, 'move');
    }),
  );
  return { data: { from: fromDisplay, to: toDisplay, replaced: existing } };
}

/**
 * `delete`: removes a file, a link (never its target) or an empty directory; a non-empty
 * directory only with `recursive`. Destructive: asks the approval hook first. The root itself
 * cannot be deleted. The parent is walked again after the approval; a recursive delete removes the
 * tree through directory handles (see `removeEntry`).
 */
export async function deleteEntry(call: FilesystemCall): Promise<FilesystemOperationResult> {
  const { policy, args } = call;
  const display = displayPath(args.raw('path'));
  const components = pathComponents(call, 'path');
  const recursive = args.boolean('recursive', false);
  const before = await openParent(policy.confinedRoot, components, display);
  await before.directory.close();
  if (before.stats === undefined)
    throw new FilesystemError('not_found', `Cannot delete '${display}': it does not exist.`, display);
  await requireApproval(call, display);
  throwIfCancelled(call);
  const entry = await openParent(policy.confinedRoot, components, display);
  try {
    if (entry.stats === undefined)
      throw new FilesystemError('not_found', `Cannot delete '${display}': it does not exist.`, display);
    await removeEntry(entry.directory, entry.name, entry.stats, recursive, call.signal);
    return { data: { path: display, type: entryTypeOf(entry.stats), deleted: true } };
  } catch (error) {
    throw toFilesystemError(error, display, 'delete');
  } finally {
    await entry.directory.close();
  }
}

/** Opens the parents of a move's source and target, runs `action`, and closes both. */
async function withParents<T>(
  call: FilesystemCall,
  fromComponents: readonly string[],
  toComponents: readonly string[],
  fromDisplay: string,
  toDisplay: string,
  action: (from: EntryInDirectory, to: EntryInDirectory) => Promise<T>,
): Promise<T> {
  const from = await openParent(call.policy.confinedRoot, fromComponents, fromDisplay);
  try {
    const to = await openParent(call.policy.confinedRoot, toComponents, toDisplay);
    try {
      return await action(from, to);
    } finally {
      await to.directory.close();
    }
  } finally {
    await from.directory.close();
  }
}
