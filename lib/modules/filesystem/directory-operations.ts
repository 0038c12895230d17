import { promises as fs } from 'node:fs';
import { JsonObject } from '../../outcome/json-value';
import { errnoOf, toFilesystemError } from './errno-mapping';
import { entryTypeOf } from './entry-type';
import {
  FilesystemCall,
  FilesystemOperationResult,
  displayPath,
  pathComponents,
  throwIfCancelled,
} from './filesystem-call';
import { FilesystemError } from './filesystem-error';
import { openDirectory, openParent } from './handle-walk';
import { withheldReason } from './withheld-metadata';

/**
 * `list`: the entries of a directory, sorted by name, at most `maxListEntries`; links are reported,
 * not followed. Names and sizes come through one checked handle of the directory, so a swap after the
 * check shows neither the names nor the sizes of what lies outside. A file with several hard links is
 * listed with `withheld: 'hard_link'` instead of its size (see `withheldReason`).
 */
export async function listDirectory(call: FilesystemCall): Promise<FilesystemOperationResult> {
  const { policy, args } = call;
  const raw = args.raw('path') ?? '.';
  const display = displayPath(raw);
  const directory = await openDirectory(policy.confinedRoot, pathComponents(call, 'path', raw), display);
  try {
    const all = await fs.readdir(directory.self, { withFileTypes: true }).catch((error: unknown) => {
      throw toFilesystemError(error, display, 'list');
    });
    all.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const entries: JsonObject[] = [];
    for (const entry of all.slice(0, policy.maxListEntries)) {
      throwIfCancelled(call);
      const type = entryTypeOf(entry);
      if (type !== 'file') {
        entries.push({ name: entry.name, type });
        continue;
      }
      const stats = await fs.lstat(directory.at(entry.name)).catch(() => undefined);
      const withheld = stats === undefined ? undefined : withheldReason(stats);
      if (stats === undefined) entries.push({ name: entry.name, type });
      else if (withheld !== undefined) entries.push({ name: entry.name, type, withheld });
      else entries.push({ name: entry.name, type, size: stats.size });
    }
    return { data: { path: display, entries, total: all.length, truncated: all.length > entries.length } };
  } finally {
    await directory.close();
  }
}

/**
 * `mkdir`: creates a directory; with `recursive`, its missing parents too. Every directory is made
 * through the checked handle of its parent and then opened `O_NOFOLLOW` through that same handle (see
 * `openDirectory`); nothing is resolved, created or removed by a host path. An existing directory is
 * not an error.
 */
export async function makeDirectory(call: FilesystemCall): Promise<FilesystemOperationResult> {
  const { policy, args } = call;
  const display = displayPath(args.raw('path'));
  const components = pathComponents(call, 'path');
  const recursive = args.boolean('recursive', false);
  if (components.length === 0) return { data: { path: display, created: false } };
  throwIfCancelled(call);
  let created = false;
  if (recursive) {
    const made = await openDirectory(policy.confinedRoot, components, display, {
      create: true,
      onCreate: () => (created = true),
    });
    await made.close();
    return { data: { path: display, created } };
  }
  const parent = await openParent(policy.confinedRoot, components, display);
  try {
    if (parent.stats === undefined)
      created = await fs.mkdir(parent.directory.at(parent.name)).then(
        () => true,
        (error: unknown) => {
          if (errnoOf(error) === 'EEXIST') return false;
          throw toFilesystemError(error, display, 'create the directory');
        },
      );
  } finally {
    await parent.directory.close();
  }
  if (!created) {
    // It exists: fine when it is a directory (or a link inside the root to one).
    const existing = await openDirectory(policy.confinedRoot, components, display).catch((error: unknown) => {
      if (FilesystemError.isInstance(error) && error.code === 'not_a_directory')
        throw new FilesystemError(
          'not_a_directory',
          `'${display}' cannot be created: it exists and is not a directory.`,
          display,
        );
      throw error;
    });
    await existing.close();
  }
  return { data: { path: display, created } };
}
