import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { descriptorFromLlmTool } from '../../../lib/contract/compile-descriptor';
import type { RunStore, ChatMessage } from '../../../lib';
import { ScriptedModelClient, LlmAgentRunner } from '../../../lib';
import { standardFailure } from '../../../lib/outcome/tool-outcome';
import type { ToolInvocation } from '../../../lib/providers/tool-invocation';
import type { ToolProvider } from '../../../lib/providers/tool-provider';

/**
 * The agent of the crash scenarios, on `store`: its model asks, in turn 1, for `charge` (a non-idempotent write
 * that can ask for compensation) and then answers `done`. Every execution of `charge` appends a line to
 * `charge.ledger` in `dir`, every compensation one to `compensate.ledger`. With `stopAt` (see
 * `boundary-worker.ts`) it writes `at-boundary` in `dir` there and hangs. With `gated`, `charge` needs approval.
 */
export function boundaryAgent(store: RunStore, dir: string, stopAt?: string, gated = process.env.GATED === '1') {
  // Hangs until the test kills the process; the interval keeps the process alive while nothing else is pending.
  const never = (): Promise<never> => new Promise<never>(() => setInterval(() => undefined, 60_000));
  const atBoundary = (name: string): Promise<never> | undefined => {
    if (stopAt !== name) return undefined;
    writeFileSync(join(dir, 'at-boundary'), name);
    return never();
  };
  const charge = descriptorFromLlmTool(
    {
      name: 'charge',
      description: 'Charge a card.',
      inputSchema: {
        type: 'object',
        properties: { cents: { type: 'integer' } },
        required: ['cents'],
        additionalProperties: false,
      },
    },
    {
      sideEffect: 'write',
      approval: gated ? 'always' : 'never',
      compensation: { enabled: true },
      retry: { maxAttempts: 2, initialDelayMs: 1, maxDelayMs: 1, jitter: 0 },
    },
  );

  const provider: ToolProvider = {
    listTools: () => [charge],
    capabilities: () => ({ invocationContext: false, idempotencyKey: true, heartbeat: false, compensation: true }),
    async invokeTool(invocation: ToolInvocation) {
      appendFileSync(join(dir, 'charge.ledger'), `${invocation.idempotencyKey}\n`);
      if (stopAt === 'during-compensation')
        return { ...standardFailure('unavailable', 'half charged'), compensation: 'required' as const };
      await atBoundary('before-admission');
      return { charged: invocation.arguments.cents };
    },
    async compensate() {
      appendFileSync(join(dir, 'compensate.ledger'), 'compensated\n');
      await atBoundary('during-compensation');
      return { ok: true };
    },
  };

  /** The store, stopped right after it admitted an outcome when `STOP_AT=after-admission`. */
  function stoppingAfterAdmission(): RunStore {
    return new Proxy(store, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver) as unknown;
        if (typeof value !== 'function') return value;
        const bound = (value as (...args: unknown[]) => Promise<unknown>).bind(target);
        if (property !== 'admitOutcome') return bound;
        return async (...args: unknown[]) => {
          const admitted = await bound(...args);
          await atBoundary('after-admission');
          return admitted;
        };
      },
    });
  }

  const model = new ScriptedModelClient(
    [
      async (messages: readonly ChatMessage[]) => {
        if (!messages.some((message) => message.role === 'tool'))
          return { toolCalls: [{ id: 'call_charge', name: 'charge', arguments: { cents: 500 } }] };
        await atBoundary('before-next-request');
        return { text: 'done' };
      },
    ],
    { whenExhausted: 'repeat' },
  );

  const runner = new LlmAgentRunner(model, provider, { store: stoppingAfterAdmission(), leaseTtlMs: 300 });
  const approvalHandler = stopAt === 'approval-pending' ? () => atBoundary('approval-pending') ?? never() : undefined;
  return { runner, approvalHandler };
}
