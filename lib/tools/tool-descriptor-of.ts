import { descriptorFromLlmTool } from '../contract/compile-descriptor';
import { checkToolDescriptor } from '../contract/check-descriptor';
import { ToolDescriptor } from '../contract/tool-descriptor';
import { LlmTool } from '../contract/llm-tool';
import { getToolMetadataStorage } from '../reflect/metadata-storage';
import { makeLlmTool } from './make-llm-tool';
import { checkTypedToolStatics, reflectOutputSchema } from './typed-tool-statics';

interface DescriptorEntry {
  revision: number;
  readonly builtAt: number;
  /** The model-visible tool it was built from (undefined when the class does not reflect). */
  readonly tool: LlmTool | undefined;
  readonly descriptor: ToolDescriptor;
}

const descriptors = new WeakMap<Function, DescriptorEntry>();

/**
 * The Tool Contract 2.0 descriptor of a tool class: from its own `toolContract(Class, factory)`,
 * else from the nearest `@Contract(options)` (a class `outputSchema` reflected to its JSON Schema),
 * else every default. The class's typed statics (`toolName`, `outputSchema`) must agree with it. Checked and cached:
 * the factory
 * runs once per class, and again only when the metadata of that class (or of a class its schema
 * reaches) changes.
 */
export function toolDescriptorOf(target: Function): ToolDescriptor {
  const storage = getToolMetadataStorage();
  const revision = storage.currentRevision;
  const cached = descriptors.get(target);
  if (cached !== undefined) {
    if (cached.revision === revision) return cached.descriptor;
    if (!storage.changedSince([target], cached.builtAt) && reflectedTool(target) === cached.tool) {
      cached.revision = revision;
      return cached.descriptor;
    }
  }
  const source = storage.contractOf(target);
  let descriptor: ToolDescriptor;
  if (source?.kind === 'factory') {
    descriptor = Object.freeze({ ...source.factory() });
    checkToolDescriptor(descriptor);
  } else {
    descriptor = descriptorFromLlmTool(makeLlmTool(target), reflectOutputSchema(target, source?.options));
  }
  checkTypedToolStatics(
    target,
    descriptor,
    source?.kind === 'options' ? source.options : undefined,
    source?.kind === 'factory',
  );
  descriptors.set(target, { revision, builtAt: revision, tool: reflectedTool(target), descriptor });
  return descriptor;
}

/** The cached model-visible tool of a class, or undefined when it does not reflect (a factory may not need it). */
function reflectedTool(target: Function): LlmTool | undefined {
  try {
    return makeLlmTool(target);
  } catch {
    return undefined;
  }
}
