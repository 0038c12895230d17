import { JsonSchema } from '../contract/json-schema';
import { descriptorFromLlmTool } from '../contract/compile-descriptor';
import { ToolDescriptor } from '../contract/tool-descriptor';
import { JsonObject } from '../outcome/json-value';
import { ToolProvider, ToolProviderCapabilities } from '../providers/tool-provider';
import { ToolInvocation } from '../providers/tool-invocation';
import type { LlmAgentRunner } from '../runner/llm-agent-runner';
import { compileStructuredOutput, CompiledStructuredOutput } from '../runner/structured-output/structured-output';
import { AgentToolOptions } from './agent-tool-options';
import { AgentToolError } from './agent-tool-error';
import { runChild } from './child-run';
import { deriveAgentContract, tightenContract } from './derived-contract';
import { markAgentToolDescriptor } from './parent-run-link';
import { toolsOfHandoffGraph } from '../runner/handoff/handoff-agents';

/** What an agent tool needs of the runner it wraps. */
export type AgentRunner = Pick<LlmAgentRunner, 'complete' | 'resume' | 'provider'>;

const DEFAULT_INPUT: JsonSchema = {
  type: 'object',
  properties: { prompt: { type: 'string', description: 'What the agent is asked to do.' } },
  required: ['prompt'],
  additionalProperties: false,
};

const CAPABILITIES: ToolProviderCapabilities = Object.freeze({
  invocationContext: false,
  idempotencyKey: true,
  heartbeat: false,
  compensation: false,
});

/**
 * A runner as one tool of another runner (`runner.asTool()`): a {@link ToolProvider} with one tool whose call runs a
 * child run of `runner` and answers with the child's final answer.
 *
 * - The contract is derived from the child's tools ({@link deriveAgentContract}); `options.contract` may tighten it,
 *   never loosen it (`AgentToolError` `contract_loosened`, thrown here); a key it does not have is refused
 *   (`ToolContractError` `invalid_contract`, as `@Contract` refuses one).
 * - In a parent run with a store, the child run is durable in the same store: its id derived from the parent run and
 *   the call ({@link childRunIdOf}), its metadata `parentRunId`, `parentCallId` and `agent` (see {@link childRunsOf}).
 *   A child that waits for an approval suspends the parent's call, and the parent run ends `awaiting_approval`;
 *   resuming the parent resumes the child, which reuses everything it admitted.
 * - The child runs under the call's signal: the parent's abort and the call's deadline (`timeoutMs`) cancel it.
 * - The child inherits the parent run's approval handler, context, worker id and lease duration.
 */
export function agentTool(runner: AgentRunner, options: AgentToolOptions): ToolProvider {
  return new AgentToolProvider(runner, options);
}

class AgentToolProvider implements ToolProvider {
  private readonly descriptor: ToolDescriptor;
  private readonly output?: CompiledStructuredOutput;

  constructor(
    private readonly runner: AgentRunner,
    private readonly options: AgentToolOptions,
  ) {
    const { name, description } = options;
    if (typeof name !== 'string' || name.length === 0)
      throw new AgentToolError('invalid_agent_tool', 'an agent tool needs a name');
    const contract = tightenContract(name, deriveAgentContract(toolsOfHandoffGraph(runner)), options.contract);
    this.output =
      options.output === undefined ? undefined : compileStructuredOutput(options.output, options.outputPolicy);
    this.descriptor = descriptorFromLlmTool(
      { name, description, inputSchema: options.input ?? DEFAULT_INPUT },
      {
        ...contract,
        ...(this.output === undefined ? {} : { outputSchema: this.output.tool.inputSchema }),
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
        ...(options.modelOutputProjection === undefined
          ? {}
          : { modelOutputProjection: options.modelOutputProjection }),
        metadata: { agentTool: true },
      },
    );
    markAgentToolDescriptor(this.descriptor);
  }

  listTools(): readonly ToolDescriptor[] {
    return [this.descriptor];
  }

  capabilities(): ToolProviderCapabilities {
    return CAPABILITIES;
  }

  invokeTool(invocation: ToolInvocation): Promise<unknown> {
    return runChild(this.runner, this.options, this.output, invocation, this.promptOf(invocation.arguments));
  }

  private promptOf(args: JsonObject): string {
    if (this.options.prompt !== undefined) return this.options.prompt(args);
    if (this.options.input === undefined && typeof args.prompt === 'string') return args.prompt;
    return JSON.stringify(args);
  }
}
