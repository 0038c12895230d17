import type { ChatMessage } from '../../model/model-types';
import type { LlmAgentRunner } from '../llm-agent-runner';

/**
 * What a handoff target sees of the conversation: called before each model request the target makes, with the whole
 * conversation (a copy), answering the messages sent. The stored transcript is never changed.
 */
export type HandoffInputFilter = (messages: readonly ChatMessage[]) => readonly ChatMessage[];

/** Options of {@link handoff}. */
export interface HandoffOptions {
  /**
   * The target's name: the transfer tool is `transfer_to_<name>`, and the name is recorded as the handoff's `to`.
   * Letters, digits, `_` and `-`, at most 52 characters. @default the target runner's `name`
   */
  readonly name?: string;
  /** The transfer tool's description, for the model. @default `Transfers the conversation to the <name> agent.` */
  readonly description?: string;
  /** Trims what the target sees (see {@link HandoffInputFilter}). @default none: the whole conversation */
  readonly inputFilter?: HandoffInputFilter;
}

/**
 * One handoff of a runner: the target runner (or a function answering it, for a graph with cycles: the target is
 * read when the transfer happens) and its options. Made by {@link handoff}.
 */
export interface Handoff extends HandoffOptions {
  /** Marks a handoff among runners in `handoffs`. */
  readonly kind: 'handoff';
  /** The runner the conversation goes to, or a function answering it (read when the transfer happens). */
  readonly target: LlmAgentRunner | (() => LlmAgentRunner);
}

/** A handoff as `handoffs` lists it: a runner (its `name` names it) or a {@link handoff}. */
export type HandoffTarget = LlmAgentRunner | Handoff;

/**
 * A handoff to `target` with a name, description or input filter of its own. A target given as a function needs
 * `name` (the runner is not read before the transfer).
 */
export function handoff(target: LlmAgentRunner | (() => LlmAgentRunner), options: HandoffOptions = {}): Handoff {
  return { ...options, kind: 'handoff', target };
}

/** The transfer tool of a handoff named `name`. */
export function transferToolName(name: string): string {
  return `transfer_to_${name}`;
}

/** A recorded handoff of a run (see {@link handoffsOf}). */
export interface HandoffEntry {
  /** The turn whose transfer call made it. */
  readonly turn: number;
  /** The transfer call. */
  readonly callId: string;
  /** The name of the runner that handed the conversation over. */
  readonly from: string;
  /** The handoff's name: the agent that holds the conversation from then on. */
  readonly to: string;
}
