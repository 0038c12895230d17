import * as path from 'node:path';
import { resolveExisting } from './confined-path';
import { readConfinedDirectory } from './confined-directory';
import { entryTypeOf } from './entry-type';
import { FilesystemCall, FilesystemOperationResult, displayPath, throwIfCancelled } from './filesystem-call';
import { FilesystemError } from './filesystem-error';
import { compileNameMatcher } from './glob-matcher';
import { relativeToRoot, splitRelativePath } from './path-rules';

/**
 * `search`: walks a directory breadth-first for entries whose name matches `pattern` (glob or
 * substring). Links are reported but never descended into, even one swapped in for a directory
 * while the walk runs (see `readConfinedDirectory`). Stops at `maxResults` matches (at most
 * the policy's `maxSearchResults`) or `maxSearchVisitedEntries` visited entries; `truncated` says so.
 */
export async function searchByName(call: FilesystemCall): Promise<FilesystemOperationResult> {
  const { policy, args } = call;
  const raw = args.raw('path') ?? '.';
  const display = displayPath(raw);
  const pattern = args.string('pattern');
  if (pattern.length === 0 || pattern.includes('/') || pattern.includes('\0'))
    throw new FilesystemError('invalid_arguments', "'pattern' must be a non-empty name pattern without '/' or NUL.");
  const matches = compileNameMatcher(pattern, args.literal('mode', ['glob', 'substring'] as const, 'substring'));
  const maxResults = Math.min(args.integer('maxResults', 1) ?? policy.maxSearchResults, policy.maxSearchResults);
  const start = await resolveExisting(policy.root, splitRelativePath(raw), display);
  const results: { path: string; type: string }[] = [];
  const queue = [start.real];
  let visited = 0;
  let truncated = false;
  while (queue.length > 0 && !truncated) {
    throwIfCancelled(call);
    const directory = queue.shift() as string;
    const entries = await readConfinedDirectory(policy.root, directory, display).catch(() => []);
    for (const entry of entries) {
      visited += 1;
      if (visited > policy.maxSearchVisitedEntries || results.length >= maxResults) {
        truncated = true;
        break;
      }
      const absolute = path.join(directory, entry.name);
      if (matches(entry.name)) results.push({ path: relativeToRoot(policy.root, absolute), type: entryTypeOf(entry) });
      if (entry.isDirectory()) queue.push(absolute);
    }
  }
  return { data: { path: display, pattern, results, truncated, visited: Math.min(visited, policy.maxSearchVisitedEntries) } };
}
