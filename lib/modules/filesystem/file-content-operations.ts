import { toFilesystemError } from './errno-mapping';
import {
  FilesystemCall,
  FilesystemOperationResult,
  displayPath,
  pathComponents,
  throwIfCancelled,
} from './filesystem-call';
import { FilesystemError } from './filesystem-error';
import { openEntry } from './handle-walk';
import { openFileIn } from './safe-open';

const ENCODINGS = ['utf8', 'base64'] as const;

/**
 * `read`: returns at most `maxReadBytes` bytes from `offset` (a longer `length` is cut), never the
 * whole file; `eof` and `nextOffset` tell the caller how to continue.
 */
export async function readFileRange(call: FilesystemCall): Promise<FilesystemOperationResult> {
  const { policy, args } = call;
  const display = displayPath(args.raw('path'));
  const components = pathComponents(call, 'path');
  const offset = args.integer('offset', 0) ?? 0;
  const requested = args.integer('length', 1) ?? policy.maxReadBytes;
  const encoding = args.literal('encoding', ENCODINGS, 'utf8');
  const entry = await openEntry(policy.confinedRoot, components, display);
  let handle;
  try {
    if (entry.stats === undefined) throw new FilesystemError('not_found', `'${display}' does not exist.`, display);
    throwIfCancelled(call);
    ({ handle } = await openFileIn(policy.confinedRoot, entry.directory, entry.name, display, 'read'));
  } finally {
    await entry.directory.close();
  }
  try {
    const { size } = await handle.stat().catch((error: unknown) => {
      throw toFilesystemError(error, display, 'inspect');
    });
    const length = Math.min(requested, policy.maxReadBytes);
    const buffer = Buffer.alloc(Math.max(0, Math.min(length, size - offset)));
    let bytesRead = 0;
    while (bytesRead < buffer.length) {
      throwIfCancelled(call);
      const chunk = await handle
        .read(buffer, bytesRead, buffer.length - bytesRead, offset + bytesRead)
        .catch((error: unknown) => {
          throw toFilesystemError(error, display, 'read');
        });
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
    await handle.close().catch(() => undefined);
  }
}

/**
 * `write` (replace the content) and `append`; refuses more than `maxWriteBytes`. Creates the file, not
 * its parents. A last component that is a link inside the root is followed; the file is then opened
 * (or created) through a checked handle of the directory the link leads to (see `openEntry`), so a
 * parent swapped for a link at any moment can neither redirect the write nor create anything outside.
 */
export async function writeFileContent(call: FilesystemCall): Promise<FilesystemOperationResult> {
  const { policy, args } = call;
  const display = displayPath(args.raw('path'));
  const components = pathComponents(call, 'path');
  const content = Buffer.from(args.string('content'), args.literal('encoding', ENCODINGS, 'utf8'));
  if (content.length > policy.maxWriteBytes)
    throw new FilesystemError(
      'too_large',
      `The content is ${content.length} bytes; at most ${policy.maxWriteBytes} bytes may be written at once.`,
      display,
    );
  if (components.length === 0)
    throw new FilesystemError(
      'operation_not_allowed',
      'The root directory itself cannot be the target of this operation.',
      display,
    );
  const mode = call.operation === 'append' ? 'append' : 'write';
  const entry = await openEntry(policy.confinedRoot, components, display);
  let opened;
  try {
    throwIfCancelled(call);
    opened = await openFileIn(policy.confinedRoot, entry.directory, entry.name, display, mode, true);
  } finally {
    await entry.directory.close();
  }
  const { handle, created } = opened;
  try {
    if (mode === 'write') await handle.truncate(0);
    await handle.writeFile(content);
  } catch (error) {
    throw toFilesystemError(error, display, mode);
  } finally {
    await handle.close().catch(() => undefined);
  }
  return { data: { path: display, bytesWritten: content.length, created }, bytes: content.length };
}
