import { checkToolDescriptor, toLlmTool } from '../../contract/check-descriptor';
import { LlmTool } from '../../contract/llm-tool';
import { ToolDescriptor } from '../../contract/tool-descriptor';
import { assertInvocable } from '../../providers/composite-tool-provider';
import { ToolProviderError } from '../../providers/tool-provider-error';
import { ToolProvider, ToolProviderCapabilities } from '../../providers/tool-provider';
import { compileInputValidator, compileOutputValidator } from '../../validation/schema-validator';
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
 * Checks every tool a provider lists, as a runner is built: the provider can invoke tools, each descriptor
 * passes `checkToolDescriptor` and its schemas compile (`SchemaCompileError` otherwise), and no name is
 * listed twice (`ToolProviderError`, `duplicate_tool`: which contract applies would be a guess). @internal
 */
export function checkProviderTools(provider: ToolProvider): CheckedTool[] {
  assertInvocable(provider);
  const checked: CheckedTool[] = [];
  const names = new Set<string>();
  for (const descriptor of provider.listTools()) {
    checkToolDescriptor(descriptor);
    if (names.has(descriptor.name))
      throw new ToolProviderError(
        'duplicate_tool',
        `the provider lists tool '${descriptor.name}' twice; which contract applies would be a guess`,
      );
    names.add(descriptor.name);
    compileInputValidator(descriptor.inputSchema);
    if (descriptor.outputSchema !== undefined) compileOutputValidator(descriptor.outputSchema);
    checked.push({
      descriptor,
      llmTool: Object.freeze(toLlmTool(descriptor)),
      neededCapabilities: neededCapabilityNames(descriptor),
    });
  }
  return checked;
}
