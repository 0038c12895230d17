import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { errnoOf, toFilesystemError } from './errno-mapping';
import { resolveExisting, resolveParent } from './confined-path';
import { withConfinedDirectory } from './confined-directory';
import { FilesystemCall, FilesystemOperationResult, displayPath, throwIfCancelled } from './filesystem-call';
import { FilesystemError } from './filesystem-error';
import { splitRelativePath } from './path-rules';
import { openConfinedFile } from './safe-open';

const ENCODINGS = ['utf8', 'base64'] as const;

/**
 * `read`: returns at most `maxReadBytes` bytes from `offset` (a longer `length` is cut), never the
 * whole file; `eof` and `nextOffset` tell the caller how to continue.
 */
export async function readFileRange(call: FilesystemCall): Promise<FilesystemOperationResult> {
  const { policy, args } = call;
  const display = displayPath(args.raw('path'));
  const components = splitRelativePath(args.raw('path'));
  const offset = args.integer('offset', 0) ?? 0;
  const requested = args.integer('length', 1) ?? policy.maxReadBytes;
  const encoding = args.literal('encoding', ENCODINGS, 'utf8');
  const resolved = await resolveExisting(policy.root, components, display);
  throwIfCancelled(call);
  const handle = await openConfinedFile(policy.root, resolved.real, display, 'read');
  try {
    const { size } = await handle.stat();
    const length = Math.min(requested, policy.maxReadBytes);
    const buffer = Buffer.alloc(Math.max(0, Math.min(length, size - offset)));
    let bytesRead = 0;
    while (bytesRead < buffer.length) {
      throwIfCancelled(call);
      const chunk = await handle.read(buffer, bytesRead, buffer.length - bytesRead, offset + bytesRead);
      if (chunk.bytesRead === 0) break;
      bytesRead += chunk.bytesRead;
    }
    const end = offset + bytesRead;
    const data = {
      path: display,
      offset,
      bytesRead,
      size,
      eof: end >= size,
      ...(end < size ? { nextOffset: end } : {}),
      lengthLimited: requested > policy.maxReadBytes,
      encoding,
      content: buffer.subarray(0, bytesRead).toString(encoding),
    };
    return { data, bytes: bytesRead };
  } finally {
    await handle.close();
  }
}

/** `write` (replace the content) and `append`; refuses more than `maxWriteBytes`. Creates the file, not its parents. */
export async function writeFileContent(call: FilesystemCall): Promise<FilesystemOperationResult> {
  const { policy, args } = call;
  const display = displayPath(args.raw('path'));
  const components = splitRelativePath(args.raw('path'));
  const content = Buffer.from(args.string('content'), args.literal('encoding', ENCODINGS, 'utf8'));
  if (content.length > policy.maxWriteBytes)
    throw new FilesystemError('too_large', `The content is ${content.length} bytes; at most ${policy.maxWriteBytes} bytes may be written at once.`, display);
  const parent = await resolveParent(policy.root, components, display);
  const existing = await fs.lstat(parent.target).catch((error: unknown) => {
    if (errnoOf(error) === 'ENOENT') return undefined;
    throw toFilesystemError(error, display, 'inspect');
  });
  const mode = call.operation === 'append' ? 'append' : 'write';
  const linked = existing?.isSymbolicLink() ? (await resolveExisting(policy.root, components, display)).real : undefined;
  throwIfCancelled(call);
  // Not through a link: the file is opened (or created) through a checked handle of its parent, so a
  // parent swapped for a link after the check is refused before anything is created outside.
  const handle =
    linked === undefined
      ? await withConfinedDirectory(policy.root, parent.parent, display, (directory) =>
          openConfinedFile(policy.root, path.join(directory, parent.name), display, mode, true),
        )
      : await openConfinedFile(policy.root, linked, display, mode, true);
  try {
    if (mode === 'write') await handle.truncate(0);
    await handle.writeFile(content);
  } catch (error) {
    throw toFilesystemError(error, display, mode);
  } finally {
    await handle.close();
  }
  return { data: { path: display, bytesWritten: content.length, created: existing === undefined }, bytes: content.length };
}
