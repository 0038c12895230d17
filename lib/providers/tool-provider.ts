import { ToolCapabilities, ToolDescriptor } from '../contract/tool-descriptor';
import { JsonObject } from '../outcome/json-value';
import { ToolOutcome } from '../outcome/tool-outcome';
import { ToolInvocation } from './tool-invocation';

/** Capability flags a provider declares per tool (the seed's `tool_provider_capabilities`). */
export type ToolProviderCapabilities = ToolCapabilities;

/** Result of `compensate`: whether the partial effect of a failed attempt was undone. */
export interface CompensationResult {
  readonly ok: boolean;
  readonly message?: string;
}

/**
 * Supplies tool descriptors and dispatches calls.
 *
 * A provider implements at least one of the invoke forms:
 * - legacy `invoke(name, args)` / `invoke(name, args, signal)`;
 * - rich `invokeTool(invocation)`.
 * Implementing `invokeTool` grants nothing by itself: advanced semantics (idempotency key,
 * heartbeat, compensation, invocation context) need `capabilities(name)` to declare them.
 */
export interface ToolProvider {
  /** Descriptors of every tool this provider offers. */
  listTools(): readonly ToolDescriptor[];
  /** Capabilities for one tool. Absent means none. */
  capabilities?(toolName: string): ToolProviderCapabilities;
  /** Legacy form. The result may be an outcome, a string or a JSON value. */
  invoke?(toolName: string, args: JsonObject, signal?: AbortSignal): unknown;
  /** Rich form. The result may be an outcome, a string or a JSON value. */
  invokeTool?(invocation: ToolInvocation): unknown;
  /** Undo the partial effect of a failed attempt whose outcome set compensation `required`. */
  compensate?(invocation: ToolInvocation, failure: ToolOutcome): Promise<CompensationResult> | CompensationResult;
  /**
   * Subscribes to changes of the tool list: the provider calls `listener` after `listTools()` starts
   * answering something else (a tool added or removed). Returns the function that unsubscribes.
   * Optional: a provider without it has a fixed list. Servers that publish the list (the MCP
   * server's `notifications/tools/list_changed`) follow it.
   */
  onToolsChanged?(listener: ToolsChangedListener): () => void;
}

/** Called after a provider's tool list changed; read the new list with `listTools()`. */
export type ToolsChangedListener = () => void;
