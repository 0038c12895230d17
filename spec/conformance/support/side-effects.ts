import { descriptorFromLlmTool } from '../../../lib/contract/compile-descriptor';
import type { ToolContractOptions, ToolDescriptor } from '../../../lib/contract/tool-descriptor';
import { canonicalArgumentsSha256 } from '../../../lib/durable/canonical-arguments';
import type { RunStore } from '../../../lib';
import type { JsonObject } from '../../../lib/outcome/json-value';
import type { ToolInvocation } from '../../../lib/providers/tool-invocation';
import type { ToolProvider, ToolProviderCapabilities } from '../../../lib/providers/tool-provider';

/**
 * Tools with observable side effects, for the conformance scenarios: every execution is counted in `executions`
 * (the side-effect ledger), so a scenario asserts how many times each one really ran.
 *
 * - `refund` (write, not idempotent, needs approval) refunds `{ cents }`;
 * - `delete_file` (destructive, needs approval) deletes `{ path }`;
 * - `lookup` (read) needs no approval.
 */
export class LedgerTools implements ToolProvider {
  readonly executions: ToolInvocation[] = [];
  private readonly descriptors: ToolDescriptor[];

  constructor(private readonly behaviour: (invocation: ToolInvocation) => unknown = defaultBehaviour) {
    this.descriptors = [
      tool('refund', { cents: { type: 'integer' } }, { sideEffect: 'write', approval: 'always' }),
      tool('delete_file', { path: { type: 'string' } }, { sideEffect: 'destructive' }),
      tool('lookup', { id: { type: 'string' } }, { sideEffect: 'read', approval: 'never' }),
    ];
  }

  listTools(): readonly ToolDescriptor[] {
    return this.descriptors;
  }

  capabilities(): ToolProviderCapabilities {
    return { invocationContext: false, idempotencyKey: true, heartbeat: false, compensation: false };
  }

  invokeTool(invocation: ToolInvocation): unknown {
    this.executions.push(invocation);
    return this.behaviour(invocation);
  }

  /** How many times `toolName` ran. */
  ran(toolName: string): number {
    return this.executions.filter((invocation) => invocation.toolName === toolName).length;
  }
}

function defaultBehaviour(invocation: ToolInvocation): unknown {
  if (invocation.toolName === 'refund') return { refunded: invocation.arguments.cents };
  if (invocation.toolName === 'delete_file') return `deleted ${JSON.stringify(invocation.arguments.path)}`;
  return { id: invocation.arguments.id, found: true };
}

function tool(name: string, properties: JsonObject, contract: ToolContractOptions): ToolDescriptor {
  return descriptorFromLlmTool(
    {
      name,
      description: `The ${name} tool.`,
      inputSchema: { type: 'object', properties, required: Object.keys(properties), additionalProperties: false },
    },
    contract,
  );
}

/** Stores a decision on the pending approval of `callId`, bound to its tool and arguments, as a host does. */
export async function decide(
  store: RunStore,
  runId: string,
  call: { readonly id: string; readonly name: string; readonly arguments: JsonObject },
  approved: boolean,
  turn = 1,
): Promise<void> {
  await store.decideApproval(
    runId,
    call.id,
    {
      approved,
      toolName: call.name,
      argumentsSha256: canonicalArgumentsSha256(call.arguments),
      decidedBy: 'conformance',
      ...(approved ? {} : { reason: 'refused by the operator' }),
    },
    { turn },
  );
}

/** The error code a tool result's content carries, or `undefined` for a success. */
export function failureCode(content: string): string | undefined {
  try {
    const parsed = JSON.parse(content) as { error?: { code?: string } };
    return parsed?.error?.code;
  } catch {
    return undefined;
  }
}
