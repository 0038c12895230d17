import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { resolve } from 'node:path';
import type { RecordKey } from '../durable/chain/record-chain';
import { recordKeyRing } from '../durable/chain/chain-digest';
import { messageOf } from '../errors/message-of';
import { CliError } from './cli-error';

/** How the `key` of a key file is written. */
const ENCODINGS = ['utf8', 'hex', 'base64'] as const;
type KeyEncoding = (typeof ENCODINGS)[number];

const FIELDS = new Set(['id', 'key', 'encoding']);
const HEX = /^(?:[0-9a-fA-F]{2})+$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const LONE_SURROGATE = /[\ud800-\udfff]/u;
/** A key file is a few keys, not a data file. */
const MAX_FILE_BYTES = 1024 * 1024;
/**
 * Read-only, and without blocking: opening a FIFO that has no writer would otherwise wait forever. Symbolic links
 * are followed (a mounted secret is often a link to the file); what is checked is the file the descriptor opened.
 * `O_NONBLOCK` changes nothing for a regular file; Windows has no such flag (nor FIFOs).
 */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * Reads the record keys of `--key-file`: a JSON file holding one key `{ "id": "...", "key": "...", "encoding": "base64"
 * }`
 * or an array of them (a key ring: every key verifies). `encoding` is `utf8` (the default: `key` is the text
 * secret, as a store's `recordKey` takes it), `hex` or `base64`; the ring then passes the store's own rules
 * (at least 16 bytes a key, unique ids). The file must be a regular file (a symbolic link to one is followed) of
 * at most 1 MiB: a FIFO, a device, a socket or a directory is refused before anything is read from it. A missing
 * or unreadable file is `not_found`; anything else wrong is a `usage` {@link CliError} whose message never quotes
 * the key.
 */
export function readRecordKeyFile(cwd: string, path: string): RecordKey[] {
  const file = resolve(cwd, path);
  const text = readKeyFileText(file);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // The parser's message may quote the file's text, the secret among it.
    throw new CliError('usage', `the key file ${file} is not JSON`);
  }
  const entries = Array.isArray(value) ? value : [value];
  if (entries.length === 0) throw new CliError('usage', `the key file ${file} holds no key`);
  const keys = entries.map((entry, index) => recordKeyOf(entry, Array.isArray(value) ? `${file}: key ${index}` : file));
  // The ring's own rules (key length, repeated ids) are the store's: asked of it, answered as a usage error.
  try {
    recordKeyRing(keys);
  } catch (error) {
    throw new CliError('usage', `${file}: ${messageOf(error)}`);
  }
  return keys;
}

/**
 * The text of the key file, read through one descriptor: opened without blocking, its type and size taken from
 * that descriptor (no check of one file then read of another), at most {@link MAX_FILE_BYTES} + 1 bytes read from
 * it (a file growing after the check stays bounded), closed whatever happens. Anything but a regular file (a FIFO,
 * a device, a socket, a directory) and a file over the limit are `usage` errors; a file that cannot be opened or
 * read is `not_found`.
 */
function readKeyFileText(file: string): string {
  let fd: number;
  try {
    fd = openSync(file, OPEN_FLAGS);
  } catch (error) {
    // A socket cannot be opened at all (ENXIO): say what it is rather than only that it cannot be read.
    const kind = kindOfPath(file);
    if (kind !== undefined) throw notARegularFile(file, kind);
    throw cannotRead(file, error);
  }
  try {
    const stats = fstatSync(fd);
    const kind = kindOf(stats);
    if (kind !== undefined) throw notARegularFile(file, kind);
    if (stats.size > MAX_FILE_BYTES) throw tooLarge(file);
    const buffer = Buffer.alloc(MAX_FILE_BYTES + 1);
    let length = 0;
    while (length < buffer.length) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
    }
    if (length > MAX_FILE_BYTES) throw tooLarge(file);
    return buffer.toString('utf8', 0, length);
  } catch (error) {
    if (CliError.isInstance(error)) throw error;
    throw cannotRead(file, error);
  } finally {
    closeSync(fd);
  }
}

const cannotRead = (file: string, error: unknown): CliError =>
  new CliError('not_found', `cannot read the key file ${file}: ${(error as Error).message}`, { cause: error });
const tooLarge = (file: string): CliError =>
  new CliError('usage', `the key file ${file} is larger than ${MAX_FILE_BYTES} bytes`);
const notARegularFile = (file: string, kind: string): CliError =>
  new CliError('usage', `the key file ${file} is ${kind}, not a regular file`);

/** What `stats` describes when it is not a regular file (`undefined` when it is one). */
function kindOf(stats: Stats): string | undefined {
  if (stats.isFile()) return undefined;
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  if (stats.isDirectory()) return 'a directory';
  return 'an unknown kind of file';
}

/** What a path that could not be opened is, when it exists and is not a regular file; only to word the error. */
function kindOfPath(file: string): string | undefined {
  try {
    const stats = statSync(file, { throwIfNoEntry: false });
    return stats === undefined ? undefined : kindOf(stats);
  } catch {
    return undefined;
  }
}

/** One key of the file, or a `usage` error saying what is wrong with it (`where` names it). */
function recordKeyOf(entry: unknown, where: string): RecordKey {
  const shape = 'must be an object { "id": "...", "key": "...", "encoding": "utf8" | "hex" | "base64" }';
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
    throw new CliError('usage', `${where} ${shape}`);
  const fields = entry as Record<string, unknown>;
  const unknown = Object.keys(fields).filter((name) => !FIELDS.has(name));
  if (unknown.length > 0)
    throw new CliError(
      'usage',
      `${where} has unknown field(s) ${unknown.map((name) => JSON.stringify(name)).join(', ')}: it ${shape}`,
    );
  const { id, key } = fields;
  const encoding = fields.encoding ?? 'utf8';
  if (typeof id !== 'string' || id === '') throw new CliError('usage', `${where}: "id" must be a non-empty string`);
  if (typeof key !== 'string') throw new CliError('usage', `${where}: "key" of '${id}' must be a string`);
  if (typeof encoding !== 'string' || !(ENCODINGS as readonly string[]).includes(encoding))
    throw new CliError('usage', `${where}: "encoding" of '${id}' must be one of ${ENCODINGS.join(', ')}`);
  const bytes = decodeKey(key, encoding as KeyEncoding);
  if (bytes === undefined) throw new CliError('usage', `${where}: "key" of '${id}' is not valid ${encoding}`);
  // Text keys stay text: the store hashes a string key as its UTF-8 bytes, and so does the verification.
  return { id, key: encoding === 'utf8' ? key : new Uint8Array(bytes) };
}

/** The key's bytes, or `undefined` when `key` is not valid in `encoding` (Node's decoders skip bad input silently). */
function decodeKey(key: string, encoding: KeyEncoding): Buffer | undefined {
  if (encoding === 'hex') return HEX.test(key) ? Buffer.from(key, 'hex') : undefined;
  if (encoding === 'base64') return BASE64.test(key) ? Buffer.from(key, 'base64') : undefined;
  // A lone surrogate has no UTF-8 form: Node would hash U+FFFD in its place.
  if (LONE_SURROGATE.test(key)) return undefined;
  return Buffer.from(key, 'utf8');
}
