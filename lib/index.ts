/**
 * wuwe: typed LLM tools for TypeScript.
 *
 * Import `reflect-metadata` once at the entry of your program before defining tool classes.
 * @packageDocumentation
 */
export * from './errors';
export * from './outcome';
export * from './contract';
export * from './validation';
export * from './reflect';
export * from './tools';
export * from './providers';
export * from './projection';
export * from './model';
export * from './runner';
export * from './durable';
export * from './modules';
// Plugins: their optional peers (@modelcontextprotocol/sdk, @nestjs/*) load on first use, never here.
export { McpToolServer, McpHttpHandler, serveToolsOverStdio, McpToolProvider, McpSetupError, descriptorFromMcpTool, mcpToolAnnotations } from './mcp';
export type { McpToolServerOptions, McpToolProviderOptions, McpServerOptions, McpSetupErrorCode } from './mcp';
export { WuweModule, WUWE_RUN_STORE } from './nest';
export type { WuweModuleOptions } from './nest';
