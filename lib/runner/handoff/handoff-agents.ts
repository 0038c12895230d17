import type { ToolDescriptor } from '../../contract/tool-descriptor';
import type { Memory } from '../../model/memory';
import type { LlmAgentRunner } from '../llm-agent-runner';
import type { LlmAgentRunnerOptions } from '../runner-options';
import type { StepContext } from '../tool-call/step-context';
import { HandoffInputFilter, HandoffTarget, transferToolName } from './handoff';
import { HandoffError } from './handoff-error';

/** A handoff of a runner, checked: its name, transfer tool and target. @internal */
export interface ResolvedHandoff {
  readonly name: string;
  readonly toolName: string;
  readonly description: string;
  /** The target runner, read when the transfer happens. */
  readonly target: () => LlmAgentRunner;
  readonly inputFilter?: HandoffInputFilter;
}

/** What a run needs of a runner to continue with it after a handoff. @internal */
export interface HandoffAgent {
  readonly name?: string;
  /** The runner's steps: its model, tools and overrides. */
  readonly steps: StepContext;
  /** The runner's options; `system`, `activeTools` and `toolChoice` become the run's when it holds the run. */
  readonly defaults: LlmAgentRunnerOptions;
  /** The names of the runner's tools, its transfer tools among them. */
  readonly toolNames: ReadonlySet<string>;
  readonly handoffs: readonly ResolvedHandoff[];
  /** The runner's own memory (for runs without `memory`). */
  readonly memory: () => Memory;
  /** The tools of the runner's provider (without its transfer tools). */
  readonly providerTools: () => readonly ToolDescriptor[];
}

const agentsByRunner = new WeakMap<object, HandoffAgent>();
const agentsBySteps = new WeakMap<StepContext, HandoffAgent>();

/** Registers a runner as it is built: only runners registered here can be handoff targets. @internal */
export function registerHandoffAgent(
  runner: LlmAgentRunner,
  parts: Omit<HandoffAgent, 'name' | 'providerTools'>,
): void {
  const agent: HandoffAgent = {
    ...parts,
    name: parts.defaults.name,
    providerTools: () => runner.provider.listTools(),
  };
  agentsByRunner.set(runner, agent);
  agentsBySteps.set(agent.steps, agent);
}

/** The agent of a runner, when it is an `LlmAgentRunner`. @internal */
export function agentOfRunner(runner: unknown): HandoffAgent | undefined {
  return typeof runner === 'object' && runner !== null ? agentsByRunner.get(runner) : undefined;
}

/** The agent whose steps these are. @internal */
export function agentOfSteps(steps: StepContext): HandoffAgent | undefined {
  return agentsBySteps.get(steps);
}

/**
 * The tools of `runner`'s provider and of every runner its handoffs reach: what a run started on it may call, for the
 * contract of an agent tool made of it. A runner that is no `LlmAgentRunner` answers its provider's tools. @internal
 */
export function toolsOfHandoffGraph(runner: {
  readonly provider: { listTools(): readonly ToolDescriptor[] };
}): readonly ToolDescriptor[] {
  const start = agentOfRunner(runner);
  if (start === undefined) return runner.provider.listTools();
  const tools: ToolDescriptor[] = [];
  const seen = new Set<HandoffAgent>([start]);
  const queue = [start];
  while (queue.length > 0) {
    const agent = queue.shift() as HandoffAgent;
    tools.push(...agent.providerTools());
    for (const edge of agent.handoffs) {
      const target = targetAgentOf(edge);
      if (seen.has(target)) continue;
      seen.add(target);
      queue.push(target);
    }
  }
  return tools;
}

/** The longest handoff name: `transfer_to_` and the name within a tool name's 64 characters. */
const NAME_PATTERN = /^[a-zA-Z0-9_-]{1,52}$/;

/**
 * The handoffs of a runner named `ownName`, checked (`HandoffError` `invalid_handoff`): each has a valid name (given,
 * or the target runner's), names are unique, no transfer tool has the name of one of `toolNames`, the runner itself
 * has a name, the target is an `LlmAgentRunner` and the filter a function (the names of `provider`'s tools). @internal
 */
export function compileHandoffs(
  ownName: string | undefined,
  targets: readonly HandoffTarget[] | undefined,
  provider: { listTools(): readonly ToolDescriptor[] },
): readonly ResolvedHandoff[] {
  if (targets === undefined) return [];
  if (!Array.isArray(targets)) throw new HandoffError('invalid_handoff', 'handoffs must be an array');
  if (targets.length === 0) return [];
  if (typeof ownName !== 'string' || !NAME_PATTERN.test(ownName))
    throw new HandoffError(
      'invalid_handoff',
      `a runner with handoffs needs a name (letters, digits, '_' and '-', at most 52): it is recorded as the 'from' of each transfer, got ${JSON.stringify(ownName)}`,
    );
  const resolved = targets.map((target, index) => resolveHandoff(target, index));
  const toolNames = provider.listTools().map((tool) => tool.name);
  const seen = new Set<string>();
  for (const { name, toolName } of resolved) {
    if (seen.has(name)) throw new HandoffError('invalid_handoff', `two handoffs are named '${name}'`);
    seen.add(name);
    if (toolNames.includes(toolName))
      throw new HandoffError(
        'invalid_handoff',
        `the transfer tool '${toolName}' of handoff '${name}' has the name of one of the runner's tools; rename the handoff (handoff(runner, { name }))`,
      );
  }
  return Object.freeze(resolved);
}

function resolveHandoff(target: HandoffTarget, index: number): ResolvedHandoff {
  const isWrapper = typeof target === 'object' && target !== null && (target as { kind?: unknown }).kind === 'handoff';
  const options = isWrapper ? (target as Extract<HandoffTarget, { kind: 'handoff' }>) : undefined;
  const runner = options === undefined ? target : options.target;
  const eager = typeof runner === 'function' ? undefined : agentOfRunner(runner);
  if (typeof runner !== 'function' && eager === undefined)
    throw new HandoffError('invalid_handoff', `handoffs[${index}] is not an LlmAgentRunner nor a handoff() of one`);
  const name = options?.name ?? eager?.name;
  if (typeof name !== 'string' || !NAME_PATTERN.test(name))
    throw new HandoffError(
      'invalid_handoff',
      `handoffs[${index}] needs a name (letters, digits, '_' and '-', at most 52; the target runner's 'name' or handoff(runner, { name })), got ${JSON.stringify(name)}`,
    );
  const inputFilter = options?.inputFilter;
  if (inputFilter !== undefined && typeof inputFilter !== 'function')
    throw new HandoffError('invalid_handoff', `handoff '${name}': inputFilter must be a function`);
  const description = options?.description ?? `Transfers the conversation to the ${name} agent.`;
  if (typeof description !== 'string' || description.length === 0)
    throw new HandoffError('invalid_handoff', `handoff '${name}': description must be a non-empty string`);
  return {
    name,
    toolName: transferToolName(name),
    description,
    target: typeof runner === 'function' ? runner : () => runner as LlmAgentRunner,
    ...(inputFilter === undefined ? {} : { inputFilter }),
  };
}

/** The target agent of a handoff (`HandoffError` `handoff_not_found` when the function answers no runner). @internal */
export function targetAgentOf(handoff: ResolvedHandoff): HandoffAgent {
  let runner: unknown;
  try {
    runner = handoff.target();
  } catch (error) {
    throw new HandoffError('handoff_not_found', `the target of handoff '${handoff.name}' could not be read`, {
      cause: error,
    });
  }
  const agent = agentOfRunner(runner);
  if (agent === undefined)
    throw new HandoffError('handoff_not_found', `the target of handoff '${handoff.name}' is not an LlmAgentRunner`);
  return agent;
}
