/**
 * Approvals: a destructive tool runs only when the host says yes.
 *
 * `RefundOrder` is `destructive` with `approval: 'always'`. The scripted model asks for two refunds; the
 * `approvalHandler` (your operator, a policy service, a chat button) approves the small one and denies the
 * large one. Without a handler, a call that needs approval is denied: fail closed. The denied call never runs,
 * and the model reads why.
 *
 * Run: `npx ts-node --transpile-only samples/02-approval/main.ts` (docs/runner.md, "Approval").
 */
import 'reflect-metadata';
import { Contract, Field, LlmAgentRunResult, ScriptedModelClient, Tool } from '../../lib';
import type { ToolCallRequest, ToolApprovalDecision } from '../../lib';

/** The refunds made, by order id. */
export const refunds: string[] = [];

@Tool({ description: 'Refund an order.' })
@Contract({ sideEffect: 'destructive', approval: 'always' })
export class RefundOrder {
  @Field({ description: 'Order id.' })
  orderId!: string;

  @Field({ type: 'integer', description: 'Amount in cents.' })
  amountCents!: number;

  invoke(): string {
    refunds.push(this.orderId);
    return `order ${this.orderId} refunded`;
  }
}

/** The host's decision: refunds up to 100.00 are approved, larger ones are not. */
export function decideRefund(request: ToolCallRequest): ToolApprovalDecision {
  const amount = Number(request.arguments.amountCents);
  return amount <= 10_000
    ? { approved: true, decidedBy: 'refund-policy' }
    : { approved: false, reason: 'refunds above 100.00 need a manager', decidedBy: 'refund-policy' };
}

/** Runs the sample and returns the run's result. */
export async function main(print: (line: string) => void = console.log): Promise<LlmAgentRunResult> {
  const model = new ScriptedModelClient(
    [
      {
        toolCalls: [
          { name: 'RefundOrder', arguments: '{"orderId":"A-1","amountCents":2500}' },
          { name: 'RefundOrder', arguments: '{"orderId":"B-2","amountCents":90000}' },
        ],
      },
      { text: 'Refunded A-1; B-2 needs a manager.' },
    ],
    { whenExhausted: 'end_turn' },
  );
  const runner = model.bindTools(RefundOrder);
  const result = await runner.complete('Refund orders A-1 and B-2', {
    approvalHandler: decideRefund,
    onEvent: (event) => {
      if (event.type === 'approval_decided') print(`approval: ${event.toolName} ${event.callId} -> ${event.approved}`);
    },
  });
  for (const call of result.toolCalls) {
    const outcome = call.outcome.ok ? 'ok' : `${call.outcome.error.code}: ${call.outcome.error.message}`;
    print(`${call.toolName} ${JSON.stringify(call.arguments)} -> ${outcome}`);
  }
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
