import { JsonSchema } from '../contract/json-schema';
import { ToolOutputProjectionPolicy } from '../contract/tool-descriptor';
import { JsonObject } from '../outcome/json-value';
import type { LlmAgentRunOptions } from '../runner/run-options';
import type { LlmAgentOwnEvent } from '../runner/runner-events';
import type { StructuredOutputPolicy, StructuredOutputSchema } from '../runner/structured-output/structured-output';
import { AgentToolContract } from './derived-contract';

/** A child run's event as an agent tool reports it: `agent` is the path of agent tools from the host's run down. */
export type NestedAgentEvent = LlmAgentOwnEvent & { readonly agent: readonly string[] };

/** The run options an agent tool passes to every child run; the rest comes from the call that starts it. */
export type ChildRunOptions = Omit<
  LlmAgentRunOptions,
  'store' | 'runId' | 'signal' | 'output' | 'outputPolicy' | 'continueFrom' | 'onEvent'
>;

/** Options of `runner.asTool()` (see {@link agentTool}). */
export interface AgentToolOptions {
  /** The tool's name, as the parent's model calls it. */
  readonly name: string;
  /** What the agent does, for the parent's model. */
  readonly description: string;
  /**
   * JSON Schema of the tool's arguments. @default `{ prompt: string }`, the child's prompt
   */
  readonly input?: JsonSchema;
  /**
   * The child run's prompt from the validated arguments. @default the `prompt` argument with the default `input`,
   * else the arguments as JSON
   */
  readonly prompt?: (args: JsonObject) => string;
  /**
   * The child's structured final answer (a class or a Standard Schema, as `complete()`'s `output`): the tool's
   * `outputSchema`, and its value the outcome's `data`. Without it the outcome is the child's final text.
   */
  readonly output?: StructuredOutputSchema;
  /** The policy of `output`, as `complete()`'s `outputPolicy`. */
  readonly outputPolicy?: StructuredOutputPolicy;
  /**
   * Tightens the contract derived from the child's tools (see {@link deriveAgentContract}); a weaker value is
   * refused (`AgentToolError` `contract_loosened`). Only `sideEffect`, `idempotency` and `approval`: any other key
   * (`maxCalls` too), an own `__proto__` key, a value that is no string or options that are no plain object are
   * refused as `@Contract` refuses them (`ToolContractError` `invalid_contract`; see {@link tightenContract}).
   */
  readonly contract?: Partial<AgentToolContract>;
  /** The hard deadline of one call: the child run is cancelled when it passes. @default 30000 */
  readonly timeoutMs?: number;
  /** Projection ceilings of the outcome for the parent's model (tighten only, as any tool's). */
  readonly modelOutputProjection?: Partial<ToolOutputProjectionPolicy>;
  /** Options of every child run (`maxSteps`, budgets, hooks). */
  readonly runOptions?: ChildRunOptions;
  /** Receives every event of the child runs (and theirs), with the `agent` path. A throwing listener is ignored. */
  readonly onEvent?: (event: NestedAgentEvent) => void;
}
