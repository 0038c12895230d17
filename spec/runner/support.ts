import { descriptorFromLlmTool } from '../../lib/contract';
import { JsonObject, ToolContractOptions, ToolDescriptor, ToolInvocation, ToolProvider } from '../../lib';
import { ToolProviderCapabilities } from '../../lib/tools';

/** A hand-written provider whose tools are plain functions, for runner tests. */
export class FunctionProvider implements ToolProvider {
  readonly calls: ToolInvocation[] = [];
  readonly compensations: ToolInvocation[] = [];
  private readonly tools = new Map<
    string,
    { descriptor: ToolDescriptor; fn: (invocation: ToolInvocation) => unknown }
  >();

  constructor(
    private readonly declared: Partial<ToolProviderCapabilities> = {},
    private readonly compensateResult: { ok: boolean } = { ok: true },
  ) {}

  add(
    name: string,
    fn: (invocation: ToolInvocation) => unknown,
    contract: ToolContractOptions = {},
    properties: JsonObject = {},
  ): this {
    const inputSchema = { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
    this.tools.set(name, {
      descriptor: descriptorFromLlmTool({ name, description: `${name} tool`, inputSchema }, contract),
      fn,
    });
    return this;
  }

  listTools(): readonly ToolDescriptor[] {
    return [...this.tools.values()].map((tool) => tool.descriptor);
  }

  capabilities(): ToolProviderCapabilities {
    return { invocationContext: false, idempotencyKey: false, heartbeat: false, compensation: false, ...this.declared };
  }

  invokeTool(invocation: ToolInvocation): unknown {
    this.calls.push(invocation);
    return this.tools.get(invocation.toolName)!.fn(invocation);
  }

  compensate(invocation: ToolInvocation): { ok: boolean } | Promise<{ ok: boolean }> {
    this.compensations.push(invocation);
    return this.compensateResult;
  }
}
