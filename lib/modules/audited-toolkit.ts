import { NO_CAPABILITIES } from '../contract/defaults';
import { ToolDescriptor } from '../contract/tool-descriptor';
import { JsonObject } from '../outcome/json-value';
import { ToolOutcome, toolFailure } from '../outcome/tool-outcome';
import { ToolInvocation } from '../providers/tool-invocation';
import { ToolProvider, ToolProviderCapabilities } from '../providers/tool-provider';
import { messageOf } from '../errors/message-of';

/**
 * Base of the sandboxed toolkits: a fixed list of descriptors, both invoke forms routed to one
 * `run`, no advanced capability (they read only the arguments and the abort signal), and an audit
 * log kept in memory when the policy has no audit sink of its own.
 */
export abstract class AuditedToolkit<AuditEntry> implements ToolProvider {
  /** Audit entries kept in memory (oldest first); filled by {@link keepAuditEntry}. */
  private readonly memoryLog: AuditEntry[] = [];
  private descriptors: readonly ToolDescriptor[] = [];

  /** Sets the tools this toolkit offers (once, from the subclass constructor). */
  protected offer(descriptors: readonly ToolDescriptor[]): void {
    this.descriptors = Object.freeze([...descriptors]);
  }

  /** Audit entries kept in memory when the policy has no `audit` sink (oldest first). */
  get auditLog(): readonly AuditEntry[] {
    return this.memoryLog;
  }

  /** The tools the policy offers. */
  listTools(): readonly ToolDescriptor[] {
    return this.descriptors;
  }

  /** None: the toolkit reads only the arguments and the abort signal of an invocation. */
  capabilities(_toolName: string): ToolProviderCapabilities {
    return NO_CAPABILITIES;
  }

  /** Rich form: runs the call; never throws. */
  invokeTool(invocation: ToolInvocation): Promise<ToolOutcome> {
    return this.run(invocation.toolName, invocation.arguments, invocation.signal);
  }

  /** Legacy form: runs the call; never throws. */
  invoke(toolName: string, args: JsonObject, signal?: AbortSignal): Promise<ToolOutcome> {
    return this.run(toolName, args, signal);
  }

  /** Runs one call under the toolkit's policy, writing its audit entry; never throws. */
  protected abstract run(toolName: string, args: unknown, signal: AbortSignal | undefined): Promise<ToolOutcome>;

  /**
   * Freezes the entry and writes it to the policy's audit sink, or to the in-memory log when there
   * is none. A failing sink withholds a success (`tool_error`); a failure is returned as it is.
   */
  protected async audit(
    entry: AuditEntry,
    outcome: ToolOutcome,
    sink: ((entry: AuditEntry) => unknown) | undefined,
  ): Promise<ToolOutcome> {
    const frozen = Object.freeze(entry);
    try {
      if (sink === undefined) this.memoryLog.push(frozen);
      else await sink(frozen);
      return outcome;
    } catch (error) {
      if (!outcome.ok) return outcome;
      return toolFailure({
        code: 'tool_error',
        message: `The audit sink failed, so the result is withheld: ${messageOf(error)}`,
        retryable: false,
      });
    }
  }
}
