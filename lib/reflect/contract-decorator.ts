import { checkToolContractOptionKeys } from '../contract/compile-descriptor';
import { ToolContractOptions, ToolDescriptor } from '../contract/tool-descriptor';
import { getToolMetadataStorage } from './metadata-storage';

/**
 * Attaches Tool Contract 2.0 options to a tool class; defaults fill the rest. A key the contract
 * does not know (a typo such as `retries: 3`) throws `ToolContractError` here, at decoration time;
 * the values are checked when the descriptor is first built. Subclasses inherit these options.
 *
 * @example
 * ```ts
 * @Tool() @Contract({ sideEffect: 'write', idempotency: 'idempotent', retry: { maxAttempts: 3 } })
 * class UpdateSetting { ... }
 * ```
 */
export function Contract(
  options: ToolContractOptions,
): <C extends Function>(target: C, context?: ClassDecoratorContext) => void {
  // Legacy and standard class decorators both receive the class first.
  return (target) => {
    checkToolContractOptionKeys(target.name, options);
    getToolMetadataStorage().setContract(target, { kind: 'options', options });
  };
}

/**
 * Gives the contract of a class you cannot change (the seed's `tool_contract<T>` specialization).
 * The factory is called once, when the descriptor is first needed (and again only if the class's
 * metadata changes); it typically starts from `descriptorFromLlmTool(makeLlmTool(Class), {...})`.
 * It applies to this class alone: a subclass has its own name and schema, so it does not inherit it.
 */
export function toolContract(target: Function, factory: () => ToolDescriptor): void {
  getToolMetadataStorage().setContract(target, { kind: 'factory', factory });
}
