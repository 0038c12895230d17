import { readdir } from 'node:fs/promises';
import path from 'node:path';

/** File extensions a directory scan indexes. */
export const INDEXABLE_EXTENSIONS: readonly string[] = Object.freeze(['.md', '.txt']);

/** A file found under a directory: its absolute path and its `/`-separated path relative to the root. */
export interface DocumentFile {
  readonly absolutePath: string;
  readonly relativePath: string;
}

/**
 * Lists the `.md` and `.txt` regular files under `root`, sorted by relative path. Symbolic links
 * and other file types are not followed; hidden entries (dot names) are skipped.
 */
export async function collectDocumentFiles(root: string, recursive: boolean): Promise<DocumentFile[]> {
  const files: DocumentFile[] = [];
  const walk = async (directory: string): Promise<void> => {
    const entries = await readdir(directory, { withFileTypes: true });
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const absolutePath = path.join(directory, entry.name);
      if (entry.isDirectory()) {
        if (recursive) await walk(absolutePath);
      } else if (entry.isFile() && INDEXABLE_EXTENSIONS.includes(path.extname(entry.name).toLowerCase())) {
        files.push({ absolutePath, relativePath: path.relative(root, absolutePath).split(path.sep).join('/') });
      }
    }
  };
  await walk(root);
  return files.sort((a, b) => (a.relativePath < b.relativePath ? -1 : a.relativePath > b.relativePath ? 1 : 0));
}
