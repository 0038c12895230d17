import { ToolContractOptions, ToolDescriptor } from '../contract/tool-descriptor';
import { getToolMetadataStorage } from './metadata-storage';

/**
 * Attaches Tool Contract 2.0 options to a tool class; defaults fill the rest.
 *
 * @example
 * ```ts
 * @Tool() @Contract({ sideEffect: 'write', idempotency: 'idempotent', retry: { maxAttempts: 3 } })
 * class UpdateSetting { ... }
 * ```
 */
export function Contract(options: ToolContractOptions): ClassDecorator {
  return (target) => getToolMetadataStorage().setContract(target, { kind: 'options', options });
}

/**
 * Gives the contract of a class you cannot change (the seed's `tool_contract<T>` specialization).
 * The factory is called once, when the descriptor is first needed; it typically starts from
 * `descriptorFromLlmTool(makeLlmTool(Class), {...})`.
 */
export function toolContract(target: Function, factory: () => ToolDescriptor): void {
  getToolMetadataStorage().setContract(target, { kind: 'factory', factory });
}
