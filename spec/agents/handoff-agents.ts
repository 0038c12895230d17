/**
 * A handoff chain for the handoff specs: `triage` (tool `lookup`, read) hands over to `billing` (tool `charge`,
 * write), which hands over to `refunds` (tool `refund`, destructive: it needs approval unless `refundApproval` says
 * otherwise). Every tool appends a line to `<dir>/<tool>.count` when it runs. Each model answers from the conversation
 * (never from a position), so a run resumed in a fresh process gets the same answers; `hold` makes one agent's model
 * hang (and report it on stdout) on its first request, for a crash test to kill the process there.
 */
import {
  ChatMessage,
  LlmAgentRunner,
  LlmAgentRunOptions,
  ScriptedModelClient,
  ScriptedReply,
  ToolContractOptions,
  ToolProvider,
} from '../../lib';
import { handoff, HandoffOptions } from '../../lib/agents';
import { countingTools } from './agent-tree';

/** A provider of one counting tool (see `countingTools`). */
export function countingTool(dir: string, name: string, contract: ToolContractOptions): ToolProvider {
  return countingTools(dir, { [name]: contract });
}

/** Whether the conversation has a Tool message of `tool`. */
function answered(messages: readonly ChatMessage[], tool: string): boolean {
  return messages.some((message) => message.role === 'tool' && message.toolName === tool);
}

/**
 * A model that calls `tool`, then (when it has an answer) `next` (a transfer), or answers `done` when there is no
 * `next`. With `hold`, its first request writes `holding <name>` to stdout and never answers.
 */
export function agentModel(name: string, tool: string, next?: string, hold = false): ScriptedModelClient {
  let held = false;
  const turn = (messages: readonly ChatMessage[]): ScriptedReply | Promise<ScriptedReply> => {
    if (hold && !held) {
      held = true;
      process.stdout.write(`${JSON.stringify({ holding: name })}\n`);
      return new Promise<ScriptedReply>(() => undefined);
    }
    if (!answered(messages, tool)) return { toolCalls: [{ id: `call_${tool}`, name: tool, arguments: {} }] };
    if (next !== undefined && !answered(messages, next))
      return { toolCalls: [{ id: `call_${next}`, name: next, arguments: {} }] };
    return { text: `${name} done` };
  };
  return new ScriptedModelClient([turn], { whenExhausted: 'repeat', modelName: `${name}-model` });
}

/** The chain's runners and their models. */
export interface HandoffChain {
  readonly triage: LlmAgentRunner;
  readonly billing: LlmAgentRunner;
  readonly refunds: LlmAgentRunner;
  readonly models: {
    readonly triage: ScriptedModelClient;
    readonly billing: ScriptedModelClient;
    readonly refunds: ScriptedModelClient;
  };
}

/** The chain; `defaults` are the entry runner's (`triage`); `hold` names the agent whose model hangs. */
export function handoffChain(
  dir: string,
  defaults: LlmAgentRunOptions = {},
  tuning: { hold?: string; refundApproval?: ToolContractOptions['approval']; toRefunds?: HandoffOptions } = {},
): HandoffChain {
  const models = {
    triage: agentModel('triage', 'lookup', 'transfer_to_billing', tuning.hold === 'triage'),
    billing: agentModel('billing', 'charge', 'transfer_to_refunds', tuning.hold === 'billing'),
    refunds: agentModel('refunds', 'refund', undefined, tuning.hold === 'refunds'),
  };
  const refundContract: ToolContractOptions = {
    sideEffect: 'destructive',
    ...(tuning.refundApproval === undefined ? {} : { approval: tuning.refundApproval }),
  };
  const refunds = new LlmAgentRunner(models.refunds, countingTool(dir, 'refund', refundContract), {
    name: 'refunds',
    system: 'You issue refunds.',
  });
  const billing = new LlmAgentRunner(models.billing, countingTool(dir, 'charge', { sideEffect: 'write' }), {
    name: 'billing',
    system: 'You handle billing.',
    handoffs: [handoff(refunds, tuning.toRefunds)],
  });
  const triage = new LlmAgentRunner(
    models.triage,
    countingTool(dir, 'lookup', { sideEffect: 'read', idempotency: 'idempotent' }),
    { name: 'triage', system: 'You route customers.', handoffs: [billing], ...defaults },
  );
  return { triage, billing, refunds, models };
}
