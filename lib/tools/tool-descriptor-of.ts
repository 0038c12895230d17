import { descriptorFromLlmTool } from '../contract/compile-descriptor';
import { checkToolDescriptor } from '../contract/check-descriptor';
import { ToolDescriptor } from '../contract/tool-descriptor';
import { getToolMetadataStorage } from '../reflect/metadata-storage';
import { makeLlmTool } from './make-llm-tool';

const descriptors = new WeakMap<Function, { revision: number; descriptor: ToolDescriptor }>();

/**
 * The Tool Contract 2.0 descriptor of a tool class: from `toolContract(Class, factory)`, else from
 * `@Contract(options)`, else every default. Checked and cached.
 */
export function toolDescriptorOf(target: Function): ToolDescriptor {
  const storage = getToolMetadataStorage();
  const cached = descriptors.get(target);
  if (cached !== undefined && cached.revision === storage.currentRevision) return cached.descriptor;
  const source = storage.contractOf(target);
  let descriptor: ToolDescriptor;
  if (source?.kind === 'factory') {
    descriptor = Object.freeze({ ...source.factory() });
    checkToolDescriptor(descriptor);
  } else {
    descriptor = descriptorFromLlmTool(makeLlmTool(target), source?.options);
  }
  descriptors.set(target, { revision: storage.currentRevision, descriptor });
  return descriptor;
}
