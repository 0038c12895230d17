import { promises as fs } from 'node:fs';
import { toFilesystemError } from './errno-mapping';
import { DirectoryHandle } from './directory-handle';
import { entryTypeOf } from './entry-type';
import {
  FilesystemCall,
  FilesystemOperationResult,
  displayPath,
  pathComponents,
  throwIfCancelled,
} from './filesystem-call';
import { FilesystemError } from './filesystem-error';
import { compileNameMatcher } from './glob-matcher';
import { openDirectory } from './handle-walk';
import { hasLoneSurrogate, MAX_PATH_COMPONENT_BYTES } from './path-rules';

/**
 * `search`: walks a directory breadth-first for entries whose name matches `pattern` (glob or
 * substring). The start directory must be one (`not_a_directory` otherwise, as for `list`). Links
 * are reported but never descended into, even one swapped in for a directory while the walk runs:
 * each directory is reopened from the root with no link allowed on the way (see `openDirectory`).
 * Stops at `maxResults` matches (at most the policy's `maxSearchResults`) or
 * `maxSearchVisitedEntries` visited entries; `truncated` says so.
 */
export async function searchByName(call: FilesystemCall): Promise<FilesystemOperationResult> {
  const { policy, args } = call;
  const raw = args.raw('path') ?? '.';
  const display = displayPath(raw);
  const pattern = args.string('pattern');
  if (
    pattern.length === 0 ||
    pattern.includes('/') ||
    pattern.includes('\0') ||
    hasLoneSurrogate(pattern) ||
    Buffer.byteLength(pattern) > MAX_PATH_COMPONENT_BYTES
  )
    throw new FilesystemError(
      'invalid_arguments',
      `'pattern' must be a non-empty name pattern of at most ${MAX_PATH_COMPONENT_BYTES} bytes, well-formed, without '/' or NUL.`,
    );
  const matches = compileNameMatcher(pattern, args.literal('mode', ['glob', 'substring'] as const, 'substring'));
  const maxResults = Math.min(args.integer('maxResults', 1) ?? policy.maxSearchResults, policy.maxSearchResults);
  const start = await openDirectory(policy.confinedRoot, pathComponents(call, 'path', raw), display);
  const results: { path: string; type: string }[] = [];
  const queue: (readonly string[])[] = [];
  let visited = 0;
  let truncated = false;
  let directory: DirectoryHandle | undefined = start;
  while (directory !== undefined) {
    try {
      throwIfCancelled(call);
      const entries = await fs.readdir(directory.self, { withFileTypes: true }).catch((error: unknown) => {
        if (directory === start) throw toFilesystemError(error, display, 'search');
        return [];
      });
      for (const entry of entries) {
        visited += 1;
        if (visited > policy.maxSearchVisitedEntries || results.length >= maxResults) {
          truncated = true;
          break;
        }
        const components = [...directory.components, entry.name];
        if (matches(entry.name)) results.push({ path: components.join('/'), type: entryTypeOf(entry) });
        if (entry.isDirectory()) queue.push(components);
      }
    } finally {
      await directory.close();
    }
    directory = truncated ? undefined : await nextDirectory(call, queue, display);
  }
  return {
    data: { path: display, pattern, results, truncated, visited: Math.min(visited, policy.maxSearchVisitedEntries) },
  };
}

/**
 * Opens the next queued directory that is still a directory reached without links; undefined when the queue is empty.
 */
async function nextDirectory(
  call: FilesystemCall,
  queue: (readonly string[])[],
  display: string,
): Promise<DirectoryHandle | undefined> {
  for (let components = queue.shift(); components !== undefined; components = queue.shift()) {
    throwIfCancelled(call);
    const opened = await openDirectory(call.policy.confinedRoot, components, display, { followLinks: false }).catch(
      (error: unknown) => {
        // A directory gone or swapped since it was listed is skipped; a cancelled call or a root that is
        // not the recorded one any more ends the search.
        if (
          FilesystemError.isInstance(error) &&
          (error.code === 'cancelled' || error.code === 'root_replaced' || error.code === 'root_unavailable')
        )
          throw error;
        return undefined;
      },
    );
    if (opened !== undefined) return opened;
  }
  return undefined;
}
