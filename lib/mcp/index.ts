/**
 * wuwe/mcp: serve any ToolProvider over the Model Context Protocol, and consume MCP servers as a
 * ToolProvider. Needs the optional peer `@modelcontextprotocol/sdk`, loaded on first use.
 * @packageDocumentation
 */
export { MCP_SDK_PACKAGE } from './load-mcp-sdk';
export { McpSetupError } from './mcp-setup-error';
export type { McpSetupErrorCode } from './mcp-setup-error';
export { mcpToolAnnotations } from './tool-annotations';
export type { McpToolAnnotations, OpenWorldPolicy } from './tool-annotations';
export { toMcpCallToolResult } from './mcp-call-result';
export { McpToolServer } from './mcp-tool-server';
export type { McpToolServerOptions, McpServedCallOptions, McpRequestContext } from './mcp-tool-server';
export { serveToolsOverStdio } from './serve-stdio';
export type { McpStdioServeOptions, McpServing } from './serve-stdio';
export { McpHttpHandler } from './mcp-http-handler';
export type { McpHttpHandlerOptions, McpHttpAuthorizer, McpHttpAuthorization } from './mcp-http-handler';
export { McpHttpRequestGuard, LOOPBACK_HOST_NAMES } from './mcp-http-request-guard';
export type { McpHttpOriginPolicy } from './mcp-http-request-guard';
export { DEFAULT_MCP_SESSION_LIMITS } from './mcp-session-limits';
export type { McpSessionLimits } from './mcp-session-limits';
export { toolProviderOfModule } from './tool-module';
export { parseWuweMcpArguments, loadToolModule, runWuweMcp, serveToolModule } from './wuwe-mcp';
export type { WuweMcpCommand, ServeToolModuleIo } from './wuwe-mcp';
export { McpToolProvider } from './mcp-tool-provider';
export type { McpToolProviderOptions } from './mcp-tool-provider-options';
export { DEFAULT_MCP_TOOL_LIST_LIMITS } from './mcp-tool-list-limits';
export type { McpToolListLimits } from './mcp-tool-list-limits';
export type { McpRefusedTool, McpToolRefusalCode } from './mcp-tool-list';
export { descriptorFromMcpTool } from './mcp-tool-descriptor';
export type { McpToolContractOptions } from './mcp-tool-descriptor';
export { outcomeFromMcpResult } from './mcp-call-outcome';
export { connectMcpServer } from './mcp-server-connection';
export type {
  McpServerOptions,
  McpStdioServerOptions,
  McpHttpServerOptions,
  McpConnection,
  McpConnectLimits,
  McpProgress,
} from './mcp-server-connection';
