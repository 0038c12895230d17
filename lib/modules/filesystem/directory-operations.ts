import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { JsonObject } from '../../outcome/json-value';
import { errnoOf, toFilesystemError } from './errno-mapping';
import { escape, resolveExisting } from './confined-path';
import { withConfinedDirectory } from './confined-directory';
import { entryTypeOf } from './entry-type';
import { FilesystemCall, FilesystemOperationResult, displayPath, throwIfCancelled } from './filesystem-call';
import { FilesystemError } from './filesystem-error';
import { isInsideRoot, splitRelativePath } from './path-rules';

/** `list`: the entries of a directory, sorted by name, at most `maxListEntries`; links are reported, not followed. */
export async function listDirectory(call: FilesystemCall): Promise<FilesystemOperationResult> {
  const { policy, args } = call;
  const raw = args.raw('path') ?? '.';
  const display = displayPath(raw);
  const directory = await resolveExisting(policy.root, splitRelativePath(raw), display);
  // Names and sizes come through one checked handle of the directory, so a swap after the check
  // shows neither the names nor the sizes of what lies outside.
  const { names, entries } = await withConfinedDirectory(policy.root, directory.real, display, async (opened) => {
    const all = await fs.readdir(opened, { withFileTypes: true }).catch((error: unknown) => {
      throw toFilesystemError(error, display, 'list');
    });
    all.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const listed: JsonObject[] = [];
    for (const entry of all.slice(0, policy.maxListEntries)) {
      throwIfCancelled(call);
      const type = entryTypeOf(entry);
      const size = type === 'file' ? await fs.lstat(path.join(opened, entry.name)).then((stats) => stats.size, () => undefined) : undefined;
      listed.push(size === undefined ? { name: entry.name, type } : { name: entry.name, type, size });
    }
    return { names: all, entries: listed };
  });
  return { data: { path: display, entries, total: names.length, truncated: names.length > entries.length } };
}

/**
 * `mkdir`: creates a directory; with `recursive`, its missing parents too. Each existing component
 * is checked inside the root before the next one is created, and each directory is created through
 * a checked handle of its parent (see `withConfinedDirectory`). An existing directory is not an error.
 */
export async function makeDirectory(call: FilesystemCall): Promise<FilesystemOperationResult> {
  const { policy, args } = call;
  const display = displayPath(args.raw('path'));
  const components = splitRelativePath(args.raw('path'));
  const recursive = args.boolean('recursive', false);
  if (components.length === 0) return { data: { path: display, created: false } };
  let current = recursive ? policy.root : (await resolveExisting(policy.root, components.slice(0, -1), display)).real;
  let created = false;
  for (const name of recursive ? components : components.slice(-1)) {
    throwIfCancelled(call);
    const next = path.join(current, name);
    const stats = await fs.lstat(next).catch((error: unknown) => {
      if (errnoOf(error) === 'ENOENT') return undefined;
      throw toFilesystemError(error, display, 'inspect');
    });
    if (stats === undefined) {
      await withConfinedDirectory(policy.root, current, display, (directory) =>
        fs.mkdir(path.join(directory, name)).catch((error: unknown) => {
          throw toFilesystemError(error, display, 'create the directory');
        }),
      );
      if (!isInsideRoot(policy.root, await fs.realpath(next).catch(() => ''))) {
        await fs.rmdir(next).catch(() => undefined);
        throw escape(display);
      }
      created = true;
      current = next;
      continue;
    }
    current = stats.isSymbolicLink() ? await fs.realpath(next).catch(() => '') : next;
    if (!isInsideRoot(policy.root, current)) throw escape(display);
    if (!(await fs.stat(current)).isDirectory())
      throw new FilesystemError('not_a_directory', `'${display}' cannot be created: '${name}' exists and is not a directory.`, display);
  }
  return { data: { path: display, created } };
}
