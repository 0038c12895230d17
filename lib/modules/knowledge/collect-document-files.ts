import { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { messageOf } from '../../errors/message-of';

/** File extensions a directory scan indexes. */
export const INDEXABLE_EXTENSIONS: readonly string[] = Object.freeze(['.md', '.txt']);

/** A file found under a directory: its absolute path and its `/`-separated path relative to the root. */
export interface DocumentFile {
  readonly absolutePath: string;
  readonly relativePath: string;
}

/** An entry a scan left out, with the reason. */
export interface SkippedEntry {
  readonly relativePath: string;
  readonly reason: string;
}

/** What a scan found: the files to index and the entries it left out on purpose. */
export interface DocumentScan {
  readonly files: DocumentFile[];
  readonly skipped: SkippedEntry[];
}

/**
 * Lists the `.md` and `.txt` regular files under `root`, sorted by relative path. Hidden entries
 * (dot names), symbolic links (never followed), FIFOs, sockets and devices, and subdirectories that
 * cannot be read are reported in `skipped` with the reason; files of other extensions are passed
 * over. Throws only when `root` itself cannot be read.
 */
export async function collectDocumentFiles(root: string, recursive: boolean): Promise<DocumentScan> {
  const files: DocumentFile[] = [];
  const skipped: SkippedEntry[] = [];
  const relative = (absolutePath: string) => path.relative(root, absolutePath).split(path.sep).join('/');
  const walk = async (directory: string): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(directory, { withFileTypes: true });
    } catch (error) {
      if (directory === root) throw error;
      skipped.push({ relativePath: relative(directory), reason: `directory not readable: ${errorCode(error)}` });
      return;
    }
    for (const entry of entries) {
      const absolutePath = path.join(directory, entry.name);
      const reason = skipReason(entry);
      if (reason !== undefined) skipped.push({ relativePath: relative(absolutePath), reason });
      else if (entry.isDirectory()) {
        if (recursive) await walk(absolutePath);
      } else if (INDEXABLE_EXTENSIONS.includes(path.extname(entry.name).toLowerCase()))
        files.push({ absolutePath, relativePath: relative(absolutePath) });
    }
  };
  await walk(root);
  const byPath = (a: { relativePath: string }, b: { relativePath: string }) =>
    a.relativePath < b.relativePath ? -1 : a.relativePath > b.relativePath ? 1 : 0;
  return { files: files.sort(byPath), skipped: skipped.sort(byPath) };
}

function skipReason(entry: Dirent): string | undefined {
  if (entry.name.startsWith('.')) return 'hidden entry (name starts with a dot)';
  if (entry.isSymbolicLink()) return 'symbolic link (links are not followed)';
  if (entry.isFIFO()) return 'not a regular file (FIFO)';
  if (entry.isSocket()) return 'not a regular file (socket)';
  if (entry.isBlockDevice() || entry.isCharacterDevice()) return 'not a regular file (device)';
  return undefined;
}

function errorCode(error: unknown): string {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : messageOf(error);
}
