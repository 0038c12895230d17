import { randomUUID } from 'node:crypto';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js' with { 'resolution-mode': 'import' };
import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js' with {
  'resolution-mode': 'import',
};
import { ToolDescriptor } from '../contract/tool-descriptor';
import { ModelStepper } from '../model/model-stepper';
import { JsonObject } from '../outcome/json-value';
import { ToolProvider } from '../providers/tool-provider';
import { LlmAgentRunner } from '../runner/llm-agent-runner';
import { LlmAgentRunOptions, ToolApprovalDecision, ToolCallRequest } from '../runner/run-options';
import { McpSdkTypesModule, loadMcpSdk } from './load-mcp-sdk';
import { isJsonObject, toMcpCallToolResult } from './mcp-call-result';
import { ProgressForwarder } from './mcp-progress-forwarder';
import { mcpToolAnnotations, OpenWorldPolicy } from './tool-annotations';
import { hasErrorMarker } from '../errors/error-marker';

type SdkServerModule = typeof import('@modelcontextprotocol/sdk/server/index.js', {
  with: { 'resolution-mode': 'import' },
});
/**
 * Host policy of the calls an MCP server runs: the runner's per-call options. A run's model, memory,
 * store and signal do not apply (each `tools/call` is one call; its signal is the request's).
 */
export type McpServedCallOptions = Omit<
  LlmAgentRunOptions,
  'signal' | 'runId' | 'store' | 'memory' | 'system' | 'maxSteps' | 'workerId' | 'leaseTtlMs'
>;

/** What the SDK hands a request handler, as far as wuwe uses it. */
export interface McpRequestContext {
  readonly signal: AbortSignal;
  readonly requestId: string | number;
  readonly sessionId?: string;
  readonly _meta?: { readonly progressToken?: string | number };
  /** Sends a notification to the client (progress). */
  sendNotification(notification: {
    method: 'notifications/progress';
    params: { progressToken: string | number; progress: number; total?: number; message?: string };
  }): Promise<void>;
  /** Sends a request to the client (elicitation) and waits for its answer. */
  sendRequest(
    request: { method: 'elicitation/create'; params: Record<string, unknown> },
    resultSchema: unknown,
    options?: { signal?: AbortSignal },
  ): Promise<unknown>;
}

/** Options of {@link McpToolServer}. */
export interface McpToolServerOptions {
  /** Server name announced to clients. @default 'wuwe' */
  readonly name?: string;
  /** Server version announced to clients. @default '0.1.0' */
  readonly version?: string;
  /** Instructions announced to clients. @default none */
  readonly instructions?: string;
  /** The `openWorldHint` of the tools. @default true (the MCP default) */
  readonly openWorld?: OpenWorldPolicy;
  /**
   * Host policy for every call (`allowToolCall`, `approvalHandler`, `onEvent`, projection ceilings, ...).
   * Without an `approvalHandler`, a call that needs approval asks the client's user by elicitation
   * when the client supports it; otherwise it is denied (fail closed).
   * @default {}
   */
  readonly callOptions?: McpServedCallOptions;
}

/** The server runs tools, never a model. */
const MCP_TOOL_SERVER = Symbol.for('wuwe.McpToolServer');

const NO_MODEL: ModelStepper = {
  modelName: 'none',
  step: () => Promise.reject(new Error('an MCP tool server runs no model')),
};

/**
 * Serves a {@link ToolProvider} over the Model Context Protocol, with the Tool Contract enforced on
 * the server side: every `tools/call` goes through the runner's per-call path (validation, host
 * policy, approvals, deadlines, retries, output validation, projection), exactly as in a run.
 *
 * One instance serves any number of connections: {@link createServer} makes an SDK `Server` for
 * each (see {@link serveToolsOverStdio} and {@link McpHttpHandler}). Heartbeats become progress
 * notifications; `notifications/cancelled` aborts the call's signal.
 */
export class McpToolServer {
  /** Marks an `McpToolServer` of any copy of the package (see {@link McpToolServer.isInstance}). */
  readonly [MCP_TOOL_SERVER] = true;

  /** True for an `McpToolServer` of any copy of the package: the MCP entry points test with this, not `instanceof`. */
  static isInstance(value: unknown): value is McpToolServer {
    return hasErrorMarker(value, MCP_TOOL_SERVER);
  }

  private current: {
    readonly runner: LlmAgentRunner;
    readonly tools: readonly McpTool[];
    readonly objectOutput: ReadonlySet<string>;
  };
  private stale = false;
  private readonly servers = new Set<Server>();
  private readonly unsubscribe: (() => void) | undefined;

  /**
   * Checks every contract of the provider now (a bad one throws here, not at the first call). When
   * the provider has `onToolsChanged`, the server follows it: the list is read again and every
   * connected client gets `notifications/tools/list_changed`.
   */
  constructor(
    readonly provider: ToolProvider,
    private readonly options: McpToolServerOptions = {},
  ) {
    this.current = this.build();
    this.unsubscribe = provider.onToolsChanged?.(() => this.toolsChanged());
  }

  /** The runner whose per-call path serves every call (made again after the provider's tools changed). */
  get runner(): LlmAgentRunner {
    return this.state().runner;
  }

  /** The tools as `tools/list` answers them. */
  listTools(): readonly McpTool[] {
    return this.state().tools;
  }

  /** A new SDK `Server` answering `tools/list` and `tools/call`; connect it to one transport. */
  createServer(): Server {
    const { Server: SdkServer } = loadMcpSdk<SdkServerModule>('server/index.js', 'McpToolServer');
    const types = loadMcpSdk<McpSdkTypesModule>('types.js', 'McpToolServer');
    const listChanged = this.unsubscribe !== undefined;
    const server = new SdkServer(
      { name: this.options.name ?? 'wuwe', version: this.options.version ?? '0.1.0' },
      {
        capabilities: { tools: listChanged ? { listChanged: true } : {} },
        ...(this.options.instructions === undefined ? {} : { instructions: this.options.instructions }),
      },
    );
    const runId = `mcp-${randomUUID()}`;
    server.setRequestHandler(types.ListToolsRequestSchema, () => ({ tools: [...this.listTools()] }));
    server.setRequestHandler(types.CallToolRequestSchema, (request, extra) =>
      this.callTool(
        server,
        runId,
        request.params.name,
        request.params.arguments ?? {},
        extra as unknown as McpRequestContext,
      ),
    );
    if (listChanged) {
      server.oninitialized = () => this.servers.add(server);
      server.onclose = () => this.servers.delete(server);
    }
    return server;
  }

  /** Stops following the provider's tool changes (connected clients stay connected). */
  close(): void {
    this.unsubscribe?.();
    this.servers.clear();
  }

  /** The provider's list changed: read it again at the next request, and tell every connected client. */
  private toolsChanged(): void {
    this.stale = true;
    for (const server of this.servers) server.sendToolListChanged().catch(() => undefined);
  }

  /** The runner and tools of the provider's current list; a bad new contract throws to the request that needs it. */
  private state(): McpToolServer['current'] {
    if (this.stale) {
      this.current = this.build();
      this.stale = false;
    }
    return this.current;
  }

  private build(): McpToolServer['current'] {
    const runner = new LlmAgentRunner(NO_MODEL, this.provider);
    const objectOutput = new Set<string>();
    const tools = this.provider.listTools().map((descriptor) => this.toMcpTool(descriptor, objectOutput));
    return { runner, tools, objectOutput };
  }

  /**
   * Runs one `tools/call` through the runner's per-call path and answers it in MCP form.
   * Never rejects for a tool's failure: that is an `isError` result.
   */
  async callTool(
    server: Server,
    runId: string,
    name: string,
    args: Record<string, unknown>,
    context: McpRequestContext,
  ): Promise<CallToolResult> {
    const callId = `${context.sessionId ?? 'call'}-${String(context.requestId)}`;
    const host = this.options.callOptions ?? {};
    const progress = new ProgressForwarder(callId, context);
    const { runner, objectOutput } = this.state();
    const result = await runner.invokeToolCall(
      { id: callId, name, arguments: args as JsonObject },
      {
        ...host,
        runId,
        signal: context.signal,
        onEvent: (event) => {
          progress.forward(event);
          host.onEvent?.(event);
        },
        approvalHandler: host.approvalHandler ?? this.clientApproval(server, context),
      },
    );
    // Progress of a call is sent before its result: a client drops progress of a finished request.
    await progress.flushed();
    return toMcpCallToolResult(result, objectOutput.has(name));
  }

  /** Approval by the client's user through elicitation, or a denial when the client cannot be asked. */
  private clientApproval(
    server: Server,
    context: McpRequestContext,
  ): (request: ToolCallRequest) => Promise<ToolApprovalDecision> {
    return async (request) => {
      if (server.getClientCapabilities()?.elicitation === undefined)
        return {
          approved: false,
          reason: 'the call needs approval and the MCP client cannot be asked (it does not support elicitation)',
          decidedBy: 'mcp-server',
        };
      const { ElicitResultSchema } = loadMcpSdk<McpSdkTypesModule>('types.js', 'McpToolServer');
      const answer = (await context.sendRequest(
        {
          method: 'elicitation/create',
          params: {
            message: `Allow the ${request.descriptor.sideEffect} tool '${request.toolName}' to run with ${JSON.stringify(request.arguments)}?`,
            requestedSchema: {
              type: 'object',
              properties: { approve: { type: 'boolean', title: 'Approve', description: `Run '${request.toolName}'` } },
              required: ['approve'],
            },
          },
        },
        ElicitResultSchema,
        { signal: context.signal },
      )) as { action: string; content?: Record<string, unknown> };
      const approved = answer.action === 'accept' && answer.content?.approve === true;
      return {
        approved,
        reason: approved ? undefined : `the user answered '${answer.action}' to the approval request`,
        decidedBy: 'mcp-client',
      };
    };
  }

  private toMcpTool(descriptor: ToolDescriptor, objectOutputNames: Set<string>): McpTool {
    const outputSchema = descriptor.outputSchema;
    const objectOutput = isJsonObject(outputSchema) && outputSchema.type === 'object';
    if (objectOutput) objectOutputNames.add(descriptor.name);
    return {
      name: descriptor.name,
      description: descriptor.description,
      inputSchema: descriptor.inputSchema as McpTool['inputSchema'],
      ...(objectOutput ? { outputSchema: outputSchema as McpTool['outputSchema'] } : {}),
      annotations: mcpToolAnnotations(descriptor, this.options.openWorld),
    };
  }
}
