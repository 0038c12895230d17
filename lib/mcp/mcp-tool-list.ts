import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js' with { 'resolution-mode': 'import' };
import { ToolContractError } from '../contract/tool-contract-error';
import { ToolDescriptor } from '../contract/tool-descriptor';
import { messageOf } from '../errors/message-of';
import { compileInputValidator, compileOutputValidator } from '../validation/schema-validator';
import { McpConnection, withTimeoutMessage } from './mcp-server-connection';
import { McpSetupError } from './mcp-setup-error';
import { descriptorFromMcpTool, McpToolContractOptions } from './mcp-tool-descriptor';
import { McpToolListLimits } from './mcp-tool-list-limits';

/** Why one tool of a server was left out (see {@link McpRefusedTool}). */
export type McpToolRefusalCode = 'invalid_tool' | 'invalid_schema' | 'description_too_long' | 'schema_too_large';

/**
 * A tool of a consumed server that wuwe does not offer: its name (cut to 200 characters), why, and
 * the details. The server's other tools are offered as usual.
 */
export interface McpRefusedTool {
  readonly name: string;
  readonly code: McpToolRefusalCode;
  readonly message: string;
}

/** The checked tools of a server: their descriptors, the server's name of each, and the tools refused. */
export interface ToolList {
  readonly descriptors: readonly ToolDescriptor[];
  readonly remoteNames: ReadonlyMap<string, string>;
  readonly refused: readonly McpRefusedTool[];
}

/** What {@link readToolList} needs to know. */
export interface ToolListReading {
  readonly serverName: string;
  readonly contract: McpToolContractOptions;
  readonly limits: Readonly<Required<McpToolListLimits>>;
  /** The whole listing (every page) must be read within this time. */
  readonly timeoutMs: number;
}

/**
 * Lists every tool of the server and checks each; a tool that fails its checks is refused (reported
 * in `refused`), the others are kept.
 * @throws McpSetupError `tool_list_unreadable` (the listing failed, timed out, or the connection
 *   closed, e.g. on a message over the transport's limit), `tool_list_too_large` (over `maxTools`),
 *   `duplicate_tool` (two tools get one name).
 */
export async function readToolList(connection: McpConnection, reading: ToolListReading): Promise<ToolList> {
  const descriptors: ToolDescriptor[] = [];
  const remoteNames = new Map<string, string>();
  const refused: McpRefusedTool[] = [];
  for (const tool of await listAllTools(connection, reading)) {
    const checked = describe(tool, reading);
    if ('code' in checked) {
      refused.push(checked);
      continue;
    }
    if (remoteNames.has(checked.name))
      throw new McpSetupError(
        'duplicate_tool',
        `the MCP server '${reading.serverName}' lists tool '${checked.name}' twice`,
      );
    remoteNames.set(checked.name, tool.name);
    descriptors.push(checked);
  }
  return { descriptors: Object.freeze(descriptors), remoteNames, refused: Object.freeze(refused) };
}

/** Whether two lists describe the same tools (names, schemas and contracts) and refuse the same ones. */
export function sameTools(a: ToolList, b: ToolList): boolean {
  return JSON.stringify([a.descriptors, a.refused]) === JSON.stringify([b.descriptors, b.refused]);
}

async function listAllTools(connection: McpConnection, reading: ToolListReading): Promise<McpTool[]> {
  const deadline = Date.now() + reading.timeoutMs;
  const tools: McpTool[] = [];
  let cursor: string | undefined;
  do {
    const timeout = Math.max(1, deadline - Date.now());
    let page: Awaited<ReturnType<McpConnection['client']['listTools']>>;
    try {
      page = await withTimeoutMessage(
        connection.client.listTools(cursor === undefined ? undefined : { cursor }, { timeout }),
        reading.timeoutMs,
      );
    } catch (error) {
      const transportErrors = connection.closed() ? connection.recentErrors().map(messageOf) : [];
      const reason =
        transportErrors.length === 0 ? messageOf(error) : `${messageOf(error)} (${transportErrors.join('; ')})`;
      throw new McpSetupError(
        'tool_list_unreadable',
        `the tool list of the MCP server '${reading.serverName}' could not be read: ${reason}`,
        { cause: error },
      );
    }
    tools.push(...page.tools);
    if (tools.length > reading.limits.maxTools)
      throw new McpSetupError(
        'tool_list_too_large',
        `the MCP server '${reading.serverName}' lists more than ${reading.limits.maxTools} tools (limits.maxTools)`,
      );
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools;
}

function describe(tool: McpTool, reading: ToolListReading): ToolDescriptor | McpRefusedTool {
  const { limits, serverName } = reading;
  const refuse = (code: McpToolRefusalCode, message: string): McpRefusedTool => ({
    name: tool.name.slice(0, 200),
    code,
    message: `tool '${tool.name.slice(0, 200)}' of the MCP server '${serverName}': ${message}`,
  });
  const description = tool.description ?? tool.title ?? tool.name;
  if (description.length > limits.maxDescriptionLength)
    return refuse(
      'description_too_long',
      `its description has ${description.length} characters, more than ${limits.maxDescriptionLength} (limits.maxDescriptionLength)`,
    );
  for (const [which, schema] of [
    ['input', tool.inputSchema],
    ['output', tool.outputSchema],
  ] as const) {
    const bytes = schema === undefined ? 0 : jsonBytes(schema);
    if (bytes > limits.maxSchemaBytes)
      return refuse(
        'schema_too_large',
        `its ${which} schema has ${bytes} bytes of JSON, more than ${limits.maxSchemaBytes} (limits.maxSchemaBytes)`,
      );
  }
  let descriptor: ToolDescriptor;
  try {
    descriptor = descriptorFromMcpTool(tool, serverName, reading.contract);
  } catch (error) {
    if (ToolContractError.isInstance(error)) return refuse('invalid_tool', error.problems.join('; '));
    throw error;
  }
  try {
    compileInputValidator(descriptor.inputSchema);
    if (descriptor.outputSchema !== undefined) compileOutputValidator(descriptor.outputSchema);
  } catch (error) {
    return refuse('invalid_schema', `its schemas cannot be compiled: ${messageOf(error)}`);
  }
  return descriptor;
}

/** The size of a value's JSON text; one too deep to write out counts as over every limit. */
function jsonBytes(value: unknown): number {
  try {
    return Buffer.byteLength(JSON.stringify(value));
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}
