/** The sample's agent: a read tool, a destructive one that needs approval, and a scripted model. */
import 'reflect-metadata';
import { Contract, Field, LlmAgentRunner, ReflectedToolProvider, ScriptedModelClient, Tool } from '../../lib';

/** How many times each tool ran. */
export const executions = { lookup: 0, refund: 0 };

@Tool({ description: 'Look up an order.' })
@Contract({ sideEffect: 'read', idempotency: 'idempotent' })
export class LookupOrder {
  @Field({ type: String, description: 'Order id.' })
  orderId!: string;

  invoke(): { orderId: string; amountCents: number } {
    executions.lookup += 1;
    return { orderId: this.orderId, amountCents: 2500 };
  }
}

@Tool({ description: 'Refund an order.' })
@Contract({ sideEffect: 'destructive', approval: 'always' })
export class RefundOrder {
  @Field({ type: String, description: 'Order id.' })
  orderId!: string;

  @Field({ type: 'integer', description: 'Amount in cents.' })
  amountCents!: number;

  invoke(): string {
    executions.refund += 1;
    return `order ${this.orderId} refunded`;
  }
}

/** Options of {@link buildRunner}. */
export interface SampleRunnerOptions {
  /** Awaited before the model's final answer (after the refund ran): holds a run mid-stream. @default none */
  readonly beforeAnswer?: () => Promise<void>;
}

/**
 * The agent: looks the order up, asks to refund it, then answers. The scripted model reads the conversation, so
 * any process (or request) can continue it.
 */
export function buildRunner(options: SampleRunnerOptions = {}): LlmAgentRunner {
  const model = new ScriptedModelClient(
    [
      async (messages) => {
        const answered = new Set(messages.flatMap((message) => (message.role === 'tool' ? [message.toolName] : [])));
        if (answered.has('RefundOrder')) {
          await options.beforeAnswer?.();
          return { text: 'Refunded order A-1 (25.00).' };
        }
        if (answered.has('LookupOrder'))
          return {
            toolCalls: [{ id: 'refund', name: 'RefundOrder', arguments: { orderId: 'A-1', amountCents: 2500 } }],
          };
        return {
          text: 'Looking up order A-1.',
          toolCalls: [{ id: 'lookup', name: 'LookupOrder', arguments: { orderId: 'A-1' } }],
        };
      },
    ],
    { whenExhausted: 'repeat' },
  );
  return new LlmAgentRunner(model, new ReflectedToolProvider([LookupOrder, RefundOrder]));
}
