/**
 * An MCP server over stdio for the output-validation scenarios, with one tool `totals` whose declared
 * `outputSchema` and whose answer are read from the JSON file given as the argument, on every request:
 * `{ "outputSchema": {...}, "structuredContent": {...} | null, "text": "...", "annotations"?: {...} }`; every
 * call it serves appends a line to `<file>.calls`. On SIGHUP it sends
 * `notifications/tools/list_changed`. So a scenario changes what the server declares and answers while it runs,
 * and what a restarted server declares.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

interface Declared {
  readonly outputSchema: { type: 'object'; [key: string]: unknown };
  readonly structuredContent: Record<string, unknown> | null;
  readonly text: string;
  /** The tool's annotations (default: read-only). */
  readonly annotations?: Record<string, unknown>;
}

const file = process.argv[2];
const declared = (): Declared => JSON.parse(readFileSync(file, 'utf8')) as Declared;

const server = new Server({ name: 'declared', version: '1' }, { capabilities: { tools: { listChanged: true } } });
server.setRequestHandler(ListToolsRequestSchema, () => ({
  tools: [
    {
      name: 'totals',
      description: 'The totals.',
      inputSchema: { type: 'object' as const },
      outputSchema: declared().outputSchema,
      annotations: declared().annotations ?? { readOnlyHint: true },
    },
  ],
}));
server.setRequestHandler(CallToolRequestSchema, () => {
  appendFileSync(`${file}.calls`, 'call\n');
  const { structuredContent, text } = declared();
  return {
    content: [{ type: 'text' as const, text }],
    ...(structuredContent === null ? {} : { structuredContent }),
  };
});
process.on('SIGHUP', () => void server.sendToolListChanged());
void server.connect(new StdioServerTransport());
