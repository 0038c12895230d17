import { ToolContractOptions, ToolDescriptor } from '../contract/tool-descriptor';
import { FieldOptions, FieldTraits, ToolOptions } from './field-options';

/** What `@Field` recorded for one property. */
export interface FieldRecord {
  readonly propertyName: string;
  readonly designType: unknown;
  readonly options: FieldOptions;
}

/** Where a class's contract comes from: decorator options or a descriptor factory. */
export type ContractSource =
  | { readonly kind: 'options'; readonly options: ToolContractOptions }
  | { readonly kind: 'factory'; readonly factory: () => ToolDescriptor };

/**
 * Collects decorator metadata keyed by constructor. Decorators only write here; the schema builder
 * reads it back. Every write bumps the class's revision so cached schemas are rebuilt.
 */
export class ToolMetadataStorage {
  private readonly tools = new Map<Function, ToolOptions>();
  private readonly fields = new Map<Function, Map<string, FieldRecord>>();
  private readonly traits = new Map<Function, Map<string, FieldTraits>>();
  private readonly contracts = new Map<Function, ContractSource>();
  private revision = 0;

  /** Increases on every write; caches compare it. */
  get currentRevision(): number {
    return this.revision;
  }

  addTool(target: Function, options: ToolOptions): void {
    this.tools.set(target, options);
    this.revision++;
  }

  addField(target: Function, record: FieldRecord): void {
    let map = this.fields.get(target);
    if (map === undefined) this.fields.set(target, (map = new Map()));
    map.set(record.propertyName, record);
    this.revision++;
  }

  addTraits(target: Function, propertyName: string, traits: FieldTraits): void {
    let map = this.traits.get(target);
    if (map === undefined) this.traits.set(target, (map = new Map()));
    map.set(propertyName, { ...map.get(propertyName), ...traits });
    this.revision++;
  }

  setContract(target: Function, source: ContractSource): void {
    this.contracts.set(target, source);
    this.revision++;
  }

  toolOptions(target: Function): ToolOptions | undefined {
    return this.tools.get(target);
  }

  /** Fields of the class and its ancestors; a subclass's field overrides its parent's. */
  fieldsOf(target: Function): FieldRecord[] {
    const merged = new Map<string, FieldRecord>();
    for (const type of ancestry(target)) for (const [name, record] of this.fields.get(type) ?? []) merged.set(name, record);
    return [...merged.values()];
  }

  traitsOf(target: Function, propertyName: string): FieldTraits | undefined {
    for (const type of ancestry(target).reverse()) {
      const traits = this.traits.get(type)?.get(propertyName);
      if (traits !== undefined) return traits;
    }
    return undefined;
  }

  /** The nearest contract along the prototype chain. */
  contractOf(target: Function): ContractSource | undefined {
    for (const type of ancestry(target).reverse()) {
      const source = this.contracts.get(type);
      if (source !== undefined) return source;
    }
    return undefined;
  }

  hasAnyMetadata(target: Function): boolean {
    return ancestry(target).some((type) => this.tools.has(type) || this.fields.has(type));
  }
}

/** The class and its ancestors, base first. */
function ancestry(target: Function): Function[] {
  const chain: Function[] = [];
  for (let type: unknown = target; typeof type === 'function' && type !== Function.prototype; type = Object.getPrototypeOf(type))
    chain.unshift(type);
  return chain;
}

const STORAGE_KEY = Symbol.for('wuwe.toolMetadataStorage');

/** The one process-wide storage (shared by every copy of the package). */
export function getToolMetadataStorage(): ToolMetadataStorage {
  const holder = globalThis as unknown as Record<symbol, ToolMetadataStorage | undefined>;
  return (holder[STORAGE_KEY] ??= new ToolMetadataStorage());
}
