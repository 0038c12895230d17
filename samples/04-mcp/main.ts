/**
 * MCP: serve a tool over the Model Context Protocol, then use it from an agent through an MCP client.
 *
 * The server side is `McpHttpHandler` (Streamable HTTP) on a loopback port: every `tools/call` goes
 * through wuwe's per-call path (validation, approvals, deadlines, projection). The client side is
 * `McpToolProvider`, a `ToolProvider` over any MCP server; the agent binds it like local tools. Both run in
 * this one process, on 127.0.0.1, so the sample needs no network.
 *
 * Needs `@modelcontextprotocol/sdk`. Run: `npx ts-node --transpile-only samples/04-mcp/main.ts` (docs/mcp.md).
 */
import 'reflect-metadata';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Contract, Field, LlmAgentRunner, LlmAgentRunResult, ScriptedModelClient, Tool, ToolRegistry } from '../../lib';
import { McpHttpHandler, McpToolProvider } from '../../lib/mcp';

@Tool({ name: 'get_weather', description: 'Get the current weather for a city.' })
@Contract({ sideEffect: 'read', idempotency: 'idempotent' })
export class GetWeather {
  @Field({ description: 'City name.' })
  city!: string;

  invoke(): { city: string; celsius: number } {
    return { city: this.city, celsius: 22 };
  }
}

/** What the client saw: the served tool's annotations-derived contract and the agent's result. */
export interface McpSampleOutput {
  readonly listed: readonly { readonly name: string; readonly sideEffect: string }[];
  readonly run: LlmAgentRunResult;
}

/** Serves `GetWeather`, connects to it as an MCP client, runs one agent turn through it, closes both. */
export async function main(print: (line: string) => void = console.log): Promise<McpSampleOutput> {
  // Server: one HTTP endpoint on a loopback port, one MCP session per client.
  const handler = new McpHttpHandler(new ToolRegistry([GetWeather]));
  const http = createServer((request, response) => void handler.handle(request, response));
  await new Promise<void>((listening) => http.listen(0, '127.0.0.1', listening));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  print(`serving get_weather over MCP at ${url}`);

  // Client: the server's tools as a ToolProvider.
  const tools = await McpToolProvider.connect({ server: { transport: 'http', url }, toolNamePrefix: 'remote_' });
  try {
    const listed = tools.listTools().map((tool) => ({ name: tool.name, sideEffect: tool.sideEffect }));
    print(`client lists: ${listed.map((tool) => `${tool.name} (${tool.sideEffect})`).join(', ')}`);

    const model = new ScriptedModelClient(
      [{ toolCalls: [{ name: 'remote_get_weather', arguments: '{"city":"Tokyo"}' }] }, { text: 'Tokyo: 22 degrees.' }],
      { whenExhausted: 'end_turn' },
    );
    const run = await new LlmAgentRunner(model, tools).complete("What's the weather in Tokyo?");
    for (const call of run.toolCalls) print(`${call.toolName} -> ${JSON.stringify(call.outcome)}`);
    print(`answer: ${run.text}`);
    return { listed, run };
  } finally {
    await tools.close();
    await handler.close();
    await new Promise((closed) => http.close(closed));
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
