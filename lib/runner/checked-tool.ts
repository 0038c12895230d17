import { toLlmTool } from '../contract/check-descriptor';
import { LlmTool } from '../contract/llm-tool';
import { ToolDescriptor } from '../contract/tool-descriptor';
import { ToolProviderCapabilities } from '../providers/tool-provider';
import { compileInputValidator, compileOutputValidator } from '../validation/schema-validator';
import { neededCapabilityNames } from './call-gates';

/**
 * What a runner derives from one descriptor a provider lists, once it is checked: the model-visible
 * tool and the provider capabilities its contract needs. @internal
 */
export interface CheckedTool {
  readonly descriptor: ToolDescriptor;
  readonly llmTool: LlmTool;
  readonly neededCapabilities: readonly (keyof ToolProviderCapabilities)[];
}

/**
 * Checked tools of immutable descriptors (see {@link isImmutableDescriptor}): such a descriptor reads
 * the same on every construction of a runner, so its verdict and the pieces derived from it are
 * worked out once. Only descriptors that passed every check are held: a bad one is checked again,
 * and refused with the same error, on every construction.
 */
const checkedTools = new WeakMap<object, CheckedTool>();

/**
 * The checked tool of a descriptor that passed every check before and cannot have changed since, or
 * undefined: the caller then checks it (`checkToolDescriptor`, then {@link checkTool}). The one
 * part of a cached descriptor that may still change, the top level of its input schema (a schema
 * object the descriptor shares with its tool, not its own copy), is read again: a schema whose `type`
 * is no longer `object` misses the cache, so the full check refuses it as it would have.
 */
export function checkedToolOf(descriptor: ToolDescriptor): CheckedTool | undefined {
  if (typeof descriptor !== 'object' || descriptor === null) return undefined;
  const checked = checkedTools.get(descriptor);
  if (checked === undefined) return undefined;
  const schema = descriptor.inputSchema;
  return typeof schema === 'object' && schema !== null && schema.type === 'object' ? checked : undefined;
}

/**
 * Compiles the schemas of a descriptor that passed `checkToolDescriptor` (compilation is cached
 * per schema object) and derives its model-visible tool and needed capabilities; the result is kept
 * for the next construction when the descriptor is immutable. Throws `SchemaCompileError`.
 */
export function checkTool(descriptor: ToolDescriptor): CheckedTool {
  compileInputValidator(descriptor.inputSchema);
  if (descriptor.outputSchema !== undefined) compileOutputValidator(descriptor.outputSchema);
  const checked: CheckedTool = Object.freeze({ descriptor, llmTool: Object.freeze(toLlmTool(descriptor)), neededCapabilities: neededCapabilityNames(descriptor) });
  if (isImmutableDescriptor(descriptor)) checkedTools.set(descriptor, checked);
  return checked;
}

/**
 * True when nothing `checkToolDescriptor`, {@link toLlmTool} or {@link neededCapabilityNames}
 * reads from the descriptor can change: the descriptor and each policy object inside it (`retry` and its
 * `retryableCategories`, `resourceVersion`, `compensation`, `capabilities`, `heartbeat`,
 * `modelOutputProjection`) is frozen, a plain object or array, and holds data properties only (a
 * getter of a frozen object could still answer differently). Freezing cannot be undone, so the answer
 * holds for good. The input schema is not required to be frozen: only its `type` is checked, and
 * {@link checkedToolOf} reads it again. `descriptorFromLlmTool` and the descriptors of tool classes
 * are immutable; a hand-written descriptor, or a factory's with mutable policies, is checked on
 * every construction.
 */
export function isImmutableDescriptor(descriptor: ToolDescriptor): boolean {
  if (!isFrozenRecord(descriptor)) return false;
  const retry = descriptor.retry;
  if (!isFrozenRecord(retry) || !isFrozenRecord(retry.retryableCategories)) return false;
  for (const policy of [descriptor.resourceVersion, descriptor.compensation, descriptor.capabilities])
    if (!isFrozenRecord(policy)) return false;
  for (const optional of [descriptor.heartbeat, descriptor.modelOutputProjection])
    if (optional !== undefined && !isFrozenRecord(optional)) return false;
  return true;
}

/** A frozen plain object or array whose own properties are all data properties. */
function isFrozenRecord(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || !Object.isFrozen(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== null && prototype !== Object.prototype && prototype !== Array.prototype) return false;
  for (const property of Object.values(Object.getOwnPropertyDescriptors(value))) if (!('value' in property)) return false;
  return true;
}

/** The frozen model-visible tools last made for a frozen listing (`provider.listTools()` of a provider that keeps its list). */
const sharedModelTools = new WeakMap<object, readonly LlmTool[]>();

/**
 * The model-visible tools of a listing, frozen: the array made for the same frozen listing before when it
 * holds the same tools (a runner built per request over one provider freezes none), else `tools` frozen.
 */
export function frozenModelTools(listed: readonly ToolDescriptor[], tools: LlmTool[]): readonly LlmTool[] {
  const shared = sharedModelTools.get(listed);
  if (shared !== undefined && sameTools(shared, tools)) return shared;
  const frozen = Object.freeze(tools);
  if (Object.isFrozen(listed)) sharedModelTools.set(listed, frozen);
  return frozen;
}

function sameTools(shared: readonly LlmTool[], tools: readonly LlmTool[]): boolean {
  if (shared.length !== tools.length) return false;
  for (let index = 0; index < tools.length; index++) if (shared[index] !== tools[index]) return false;
  return true;
}
