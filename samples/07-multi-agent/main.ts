/**
 * Multi-agent: a support agent hands refunds to a billing agent, called as a tool (`runner.asTool()`).
 *
 * The billing agent can call `RefundOrder` (`destructive`), so its tool is derived `destructive` too: the support
 * run asks approval before it delegates. The billing run is a child run in the same store, linked to the call
 * that started it; its own approval of the refund suspends the support run as well (`awaiting_approval`, naming the
 * child that waits). The host decides from the store, resumes the support run, and the child resumes first: the
 * refund runs once, and the child's answer is the support agent's tool outcome.
 *
 * Run: `npx ts-node --transpile-only samples/07-multi-agent/main.ts` (docs/multi-agent.md).
 */
import 'reflect-metadata';
import {
  ChatMessage,
  Contract,
  Field,
  LlmAgentRunner,
  LlmAgentRunResult,
  MemoryRunStore,
  ScriptedModelClient,
  Tool,
} from '../../lib';
import type { RunStore, ScriptedReply } from '../../lib';
import { childRunsOf } from '../../lib/agents';

/** The refunds made, by order id. */
export const refunds: string[] = [];

@Tool({ description: 'Refund an order.' })
@Contract({ sideEffect: 'destructive' })
export class RefundOrder {
  @Field({ description: 'Order id.' })
  orderId!: string;

  invoke(): string {
    refunds.push(this.orderId);
    return `order ${this.orderId} refunded`;
  }
}

/** A scripted agent: `first` until a tool answered, then a text with the tool answers. */
function agentModel(first: ScriptedReply, answer: string): ScriptedModelClient {
  const turn = (messages: readonly ChatMessage[]): ScriptedReply => {
    const answers = messages.flatMap((message) => (message.role === 'tool' ? [message.content] : []));
    return answers.length === 0 ? first : { text: `${answer} (${answers.join('; ')})` };
  };
  return new ScriptedModelClient([turn], { whenExhausted: 'repeat' });
}

/** Approves every pending approval of a run, as an operator deciding from the store would. */
async function approveAll(store: RunStore, runId: string, print: (line: string) => void): Promise<void> {
  for (const approval of (await store.loadRun(runId))?.approvals ?? []) {
    if (approval.state !== 'pending') continue;
    const { callId, toolName, argumentsSha256, turn } = approval;
    await store.decideApproval(
      runId,
      callId,
      { approved: true, toolName, argumentsSha256, decidedBy: 'operator' },
      { turn },
    );
    print(`approved ${toolName} in ${runId}`);
  }
}

/** Runs the sample and returns the support run's final result. */
export async function main(print: (line: string) => void = console.log): Promise<LlmAgentRunResult> {
  const store = new MemoryRunStore();
  const billing = agentModel(
    { toolCalls: [{ name: 'RefundOrder', arguments: '{"orderId":"A-1"}' }] },
    'Refunded A-1',
  ).bindTools(RefundOrder);
  const billingTool = billing.asTool({ name: 'billing', description: 'Handles refunds and invoices.' });
  print(
    `billing tool contract: ${billingTool.listTools()[0].sideEffect}, approval ${billingTool.listTools()[0].approval}`,
  );
  const support = new LlmAgentRunner(
    agentModel({ toolCalls: [{ name: 'billing', arguments: { prompt: 'Refund order A-1' } }] }, 'Done'),
    billingTool,
    { store },
  );

  let result = await support.complete('Please refund my order A-1', { runId: 'support-1' });
  while (result.stopReason === 'awaiting_approval') {
    const waiting = result.toolCalls.find((call) => call.awaitingApproval === true)!;
    const details = waiting.outcome.ok ? undefined : (waiting.outcome.error.details as { waitingRunIds?: string[] });
    const runs = details?.waitingRunIds ?? ['support-1'];
    print(`support-1: awaiting_approval, waiting in ${runs.join(', ')}`);
    for (const runId of runs) await approveAll(store, runId, print);
    result = await support.resume('support-1');
  }
  const children = await childRunsOf(store, 'support-1');
  print(`child runs: ${children.map((child) => `${child.agent} ${child.status}`).join(', ')}`);
  print(`refunds made: ${refunds.join(', ')}`);
  print(`answer: ${result.text}`);
  return result;
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
