import { readFileSync } from 'node:fs';
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
 * Reads the record keys of `--key-file`: a JSON file holding one key `{ "id": "...", "key": "...", "encoding": "base64"
 * }`
 * or an array of them (a key ring: every key verifies). `encoding` is `utf8` (the default: `key` is the text
 * secret, as a store's `recordKey` takes it), `hex` or `base64`; the ring then passes the store's own rules
 * (at least 16 bytes a key, unique ids). A missing file is `not_found`; anything else wrong is a `usage` {@link
 * CliError} whose message
 * never quotes the key.
 */
export function readRecordKeyFile(cwd: string, path: string): RecordKey[] {
  const file = resolve(cwd, path);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError('not_found', `cannot read the key file ${file}: ${(error as Error).message}`, { cause: error });
  }
  if (Buffer.byteLength(text) > MAX_FILE_BYTES)
    throw new CliError('usage', `the key file ${file} is larger than ${MAX_FILE_BYTES} bytes`);
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
