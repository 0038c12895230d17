/**
 * A three-level agent tree for the agent-tool specs: `parent` calls `notify` (write) and `delegate` (the child agent);
 * the child calls `lookup` (read) and `cleanup` (the grandchild agent); the grandchild calls `delete_file`
 * (destructive, needs approval). Every tool appends a line to `<dir>/<tool>.count` when it runs, so a test counts
 * the side effects of the whole tree. The models answer from the conversation (not from a position), so a resumed
 * run in a fresh process gets the same answers.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ChatMessage,
  composeToolProviders,
  LlmAgentRunner,
  LlmAgentRunOptions,
  RunStore,
  ScriptedModelClient,
  ScriptedReply,
  ToolDescriptor,
  ToolInvocation,
  ToolProvider,
} from '../../lib';
import { descriptorFromLlmTool } from '../../lib/contract';
import type { ToolContractOptions } from '../../lib';
import { AgentToolOptions } from '../../lib/agents';

const noArgs = { type: 'object', properties: {}, additionalProperties: false } as const;

/** How many times the counting tool `tool` ran, in any process, by its file in `dir`. */
export function countOf(dir: string, tool: string): number {
  const path = join(dir, `${tool}.count`);
  return existsSync(path) ? readFileSync(path, 'utf8').trim().split('\n').length : 0;
}

/** A provider of counting tools with the given contracts; `slowMs` delays each call. */
export function countingTools(
  dir: string,
  tools: Record<string, ToolContractOptions>,
  slowMs = 0,
): ToolProvider & { calls: string[] } {
  const descriptors: ToolDescriptor[] = Object.entries(tools).map(([name, contract]) =>
    descriptorFromLlmTool({ name, description: `The ${name} tool.`, inputSchema: noArgs }, contract),
  );
  const calls: string[] = [];
  return {
    calls,
    listTools: () => descriptors,
    async invokeTool(invocation: ToolInvocation) {
      calls.push(invocation.toolName);
      appendFileSync(join(dir, `${invocation.toolName}.count`), `${invocation.runId}\n`);
      if (slowMs > 0) await new Promise((resolve) => setTimeout(resolve, slowMs));
      return `${invocation.toolName} done`;
    },
  };
}

/** A model that calls `calls` first, then answers `answer` with the Tool messages it got. */
export function scriptedAgent(calls: readonly string[], answer: string): ScriptedModelClient {
  const turn = (messages: readonly ChatMessage[]): ScriptedReply => {
    const results = messages.flatMap((message) => (message.role === 'tool' ? [message.content] : []));
    if (results.length > 0 || calls.length === 0) return { text: `${answer}: ${results.join(' | ')}` };
    return {
      toolCalls: calls.map((name) => {
        const args: Record<string, string> =
          name === 'delegate' || name === 'cleanup' ? { prompt: `please ${name}` } : {};
        return { id: `call_${name}`, name, arguments: args };
      }),
    };
  };
  return new ScriptedModelClient([turn], { whenExhausted: 'repeat' });
}

/** The tree; `defaults` are the parent runner's (its store), `leafSlowMs` delays `delete_file`. */
export function agentTree(
  dir: string,
  defaults: LlmAgentRunOptions & { store?: RunStore } = {},
  tuning: { leafSlowMs?: number; cleanup?: Partial<AgentToolOptions>; delegate?: Partial<AgentToolOptions> } = {},
): LlmAgentRunner {
  const grandchild = new LlmAgentRunner(
    scriptedAgent(['delete_file'], 'grandchild done'),
    countingTools(dir, { delete_file: { sideEffect: 'destructive' } }, tuning.leafSlowMs),
  );
  const child = new LlmAgentRunner(
    scriptedAgent(['lookup', 'cleanup'], 'child done'),
    composeToolProviders(
      countingTools(dir, { lookup: { sideEffect: 'read', idempotency: 'idempotent' } }),
      grandchild.asTool({ name: 'cleanup', description: 'Deletes what is no longer needed.', ...tuning.cleanup }),
    ),
  );
  return new LlmAgentRunner(
    scriptedAgent(['notify', 'delegate'], 'parent done'),
    composeToolProviders(
      countingTools(dir, { notify: { sideEffect: 'write' } }),
      child.asTool({ name: 'delegate', description: 'Hands the work to the child agent.', ...tuning.delegate }),
    ),
    defaults,
  );
}

/** Approves every pending approval of the runs `runIds` (as a host deciding from the store would). */
export async function approveAll(store: RunStore, runIds: readonly string[]): Promise<string[]> {
  const decided: string[] = [];
  for (const runId of runIds) {
    const record = await store.loadRun(runId);
    for (const approval of record?.approvals ?? []) {
      if (approval.state !== 'pending') continue;
      await store.decideApproval(
        runId,
        approval.callId,
        { approved: true, toolName: approval.toolName, argumentsSha256: approval.argumentsSha256, decidedBy: 'test' },
        { turn: approval.turn },
      );
      decided.push(`${runId}:${approval.toolName}`);
    }
  }
  return decided;
}
