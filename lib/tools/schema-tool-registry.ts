import type { CompiledToolClass } from './compiled-tool-class';

const compiledSchemaTools = new WeakMap<Function, CompiledToolClass>();

/** Records the compiled form of a tool made by `defineTool`, which `compileToolClass` returns for it. */
export function registerSchemaTool(target: Function, compiled: CompiledToolClass): void {
  compiledSchemaTools.set(target, compiled);
}

/** The compiled form of a tool made by `defineTool`, or undefined for a decorated class. */
export function compiledSchemaTool(target: Function): CompiledToolClass | undefined {
  return compiledSchemaTools.get(target);
}
