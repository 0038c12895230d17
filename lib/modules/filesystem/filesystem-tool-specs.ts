import { JsonSchema } from '../../contract/json-schema';
import { ToolContractOptions } from '../../contract/tool-descriptor';
import { MAX_PATH_BYTES } from './path-rules';
import { FilesystemOperation } from './filesystem-operations';

/** Model-visible description, input schema, argument names and default contract of one operation. */
export interface FilesystemToolSpec {
  readonly description: string;
  readonly inputSchema: JsonSchema;
  readonly argumentNames: readonly string[];
  readonly contract: ToolContractOptions;
}

const pathSchema = (description: string): JsonSchema => ({
  type: 'string',
  maxLength: MAX_PATH_BYTES,
  description: `${description} Components separated by '/'.`,
});
const encodingSchema: JsonSchema = {
  type: 'string',
  enum: ['utf8', 'base64'],
  description: "Content encoding; 'utf8' unless given.",
};

function objectSchema(properties: Record<string, JsonSchema>, required: readonly string[]): JsonSchema {
  return { type: 'object', properties, required, additionalProperties: false };
}

function spec(
  description: string,
  properties: Record<string, JsonSchema>,
  required: readonly string[],
  contract: ToolContractOptions,
): FilesystemToolSpec {
  return Object.freeze({
    description,
    inputSchema: objectSchema(properties, required),
    argumentNames: Object.keys(properties),
    contract,
  });
}

const READ: ToolContractOptions = { sideEffect: 'read', idempotency: 'idempotent' };

/** The hand-written specs of every operation. Paths are relative to the toolkit's root. */
export const FILESYSTEM_TOOL_SPECS: Readonly<Record<FilesystemOperation, FilesystemToolSpec>> = Object.freeze({
  read: spec(
    'Read a byte range of a file under the root. Returns at most the configured limit; use nextOffset to continue.',
    {
      path: pathSchema('File path relative to the root.'),
      offset: { type: 'integer', minimum: 0, description: 'First byte to read; 0 unless given.' },
      length: { type: 'integer', minimum: 1, description: 'Bytes to read; the configured limit unless given.' },
      encoding: encodingSchema,
    },
    ['path'],
    READ,
  ),
  list: spec(
    "List the entries of a directory under the root. A file with several hard links shows withheld: 'hard_link' instead of its size.",
    { path: pathSchema("Directory relative to the root; '.' for the root.") },
    [],
    READ,
  ),
  stat: spec(
    "Show type, size, permissions and modification time of a path under the root; for a file with several hard links these are withheld (withheld: 'hard_link').",
    { path: pathSchema('Path relative to the root.') },
    ['path'],
    READ,
  ),
  search: spec(
    'Find files and directories by name under a directory of the root.',
    {
      path: pathSchema("Directory to search, relative to the root; '.' unless given."),
      pattern: {
        type: 'string',
        minLength: 1,
        maxLength: 255,
        description: "Name pattern: a substring, or a glob with * and ? when mode is 'glob'.",
      },
      mode: { type: 'string', enum: ['substring', 'glob'], description: "'substring' unless given." },
      maxResults: {
        type: 'integer',
        minimum: 1,
        description: 'Most matches to return (capped by the configured limit).',
      },
    },
    ['pattern'],
    READ,
  ),
  write: spec(
    'Create or replace a file under the root with the given content. The parent directory must exist.',
    {
      path: pathSchema('File path relative to the root.'),
      content: { type: 'string', description: 'New content of the file.' },
      encoding: encodingSchema,
    },
    ['path', 'content'],
    { sideEffect: 'write', idempotency: 'idempotent' },
  ),
  append: spec(
    'Append content to a file under the root, creating it if missing.',
    {
      path: pathSchema('File path relative to the root.'),
      content: { type: 'string', description: 'Content to append.' },
      encoding: encodingSchema,
    },
    ['path', 'content'],
    { sideEffect: 'write', idempotency: 'non_idempotent' },
  ),
  mkdir: spec(
    'Create a directory under the root.',
    {
      path: pathSchema('Directory path relative to the root.'),
      recursive: { type: 'boolean', description: 'Also create missing parents; false unless given.' },
    },
    ['path'],
    { sideEffect: 'write', idempotency: 'idempotent' },
  ),
  move: spec(
    'Move or rename a file or directory within the root.',
    {
      from: pathSchema('Existing path relative to the root.'),
      to: pathSchema('New path relative to the root; its parent must exist.'),
      overwrite: { type: 'boolean', description: 'Replace an existing target; false unless given.' },
    },
    ['from', 'to'],
    { sideEffect: 'write', idempotency: 'non_idempotent' },
  ),
  delete: spec(
    'Delete a file, link or directory under the root.',
    {
      path: pathSchema('Path relative to the root.'),
      recursive: { type: 'boolean', description: 'Delete a non-empty directory and its content; false unless given.' },
    },
    ['path'],
    { sideEffect: 'destructive', idempotency: 'non_idempotent', approval: 'always' },
  ),
});
