/**
 * Agents that call agents: a runner as a tool of another runner, with a contract derived from the child's tools,
 * durable child runs linked to their parent, approvals that suspend the whole tree, deadlines and cancellation that
 * propagate down; handoffs, where a run continues with another agent's instructions, tools and model (`handoff`,
 * `handoffsOf`).
 * @module
 */
export { agentTool } from './agent-tool';
export type { AgentRunner } from './agent-tool';
export type { AgentToolOptions, ChildRunOptions, NestedAgentEvent } from './agent-tool-options';
export { AgentToolError } from './agent-tool-error';
export type { AgentToolErrorCode } from './agent-tool-error';
export { deriveAgentContract, tightenContract } from './derived-contract';
export type { AgentToolContract } from './derived-contract';
export { childRunIdOf, PARENT_CALL_ID, PARENT_RUN_ID, AGENT_NAME } from './child-run-id';
export { childRunsOf } from './child-runs';
export type { ChildRunSummary } from './child-runs';
export { ancestorsOf, loadRunTree } from './run-tree';
export type { RunTree } from './run-tree';
export type { WaitingChild } from './parent-run-link';
export { handoff, transferToolName } from '../runner/handoff/handoff';
export type {
  Handoff,
  HandoffEntry,
  HandoffInputFilter,
  HandoffOptions,
  HandoffTarget,
} from '../runner/handoff/handoff';
export { HandoffError } from '../runner/handoff/handoff-error';
export type { HandoffErrorCode } from '../runner/handoff/handoff-error';
export { handoffsOf } from '../runner/handoff/handoff-entries';
export type { HandoffRecord } from '../runner/handoff/handoff-replay';
