import { ToolContractOptions, ToolDescriptor } from '../contract/tool-descriptor';
import { FieldTraits, ToolOptions } from './field-options';
import { FieldRecord } from './field-record';
import { standardFieldsOf } from './standard-decorators';

export type { FieldRecord } from './field-record';

/** Where a class's contract comes from: decorator options or a descriptor factory. */
export type ContractSource =
  | { readonly kind: 'options'; readonly options: ToolContractOptions }
  | { readonly kind: 'factory'; readonly factory: () => ToolDescriptor };

/**
 * Collects decorator metadata keyed by constructor. Decorators only write here; the schema builder
 * reads it back. Every write bumps the global revision (a cheap "nothing changed" test for caches)
 * and records it as the class's own revision, so a cache can tell whether the classes it was built
 * from changed ({@link ToolMetadataStorage.changedSince}) and keep its value when they did not.
 */
export class ToolMetadataStorage {
  // Weak: a class made at run time (a plugin, a per-tenant tool) is collected once nothing refers to it.
  private readonly tools = new WeakMap<Function, ToolOptions>();
  private readonly fields = new WeakMap<Function, Map<string, FieldRecord>>();
  private readonly traits = new WeakMap<Function, Map<string, FieldTraits>>();
  private readonly contracts = new WeakMap<Function, ContractSource>();
  private readonly classRevisions = new WeakMap<Function, number>();
  /** Classes whose standard-decorator metadata (`Symbol.metadata`) has been read into `fields`. */
  private readonly adopted = new WeakSet<Function>();
  private revision = 0;

  /** Increases on every write; caches compare it. */
  get currentRevision(): number {
    return this.revision;
  }

  /**
   * True when metadata of any of the classes, or of an ancestor of one, was written after
   * `revision` (a value of {@link currentRevision}).
   */
  changedSince(classes: Iterable<Function>, revision: number): boolean {
    for (const target of classes)
      for (const type of this.ancestry(target)) if ((this.classRevisions.get(type) ?? 0) > revision) return true;
    return false;
  }

  /** Records a write to the metadata of `target`. */
  private touch(target: Function): void {
    this.classRevisions.set(target, ++this.revision);
  }

  addTool(target: Function, options: ToolOptions): void {
    this.tools.set(target, options);
    this.touch(target);
  }

  addField(target: Function, record: FieldRecord): void {
    let map = this.fields.get(target);
    if (map === undefined) this.fields.set(target, (map = new Map()));
    map.set(record.propertyName, record);
    this.touch(target);
  }

  addTraits(target: Function, propertyName: string, traits: FieldTraits): void {
    let map = this.traits.get(target);
    if (map === undefined) this.traits.set(target, (map = new Map()));
    map.set(propertyName, { ...map.get(propertyName), ...definedTraits(traits) });
    this.touch(target);
  }

  setContract(target: Function, source: ContractSource): void {
    this.contracts.set(target, source);
    this.touch(target);
  }

  toolOptions(target: Function): ToolOptions | undefined {
    return this.tools.get(target);
  }

  /** Fields of the class and its ancestors; a subclass's field overrides its parent's. */
  fieldsOf(target: Function): FieldRecord[] {
    const merged = new Map<string, FieldRecord>();
    for (const type of this.ancestry(target))
      for (const [name, record] of this.fields.get(type) ?? []) merged.set(name, record);
    return [...merged.values()];
  }

  /** The `fieldTraits` of a field merged along the class chain (the nearest class wins per key). */
  traitsOf(target: Function, propertyName: string): FieldTraits | undefined {
    let merged: FieldTraits | undefined;
    for (const type of this.ancestry(target)) {
      const traits = this.traits.get(type)?.get(propertyName);
      if (traits !== undefined) merged = { ...merged, ...definedTraits(traits) };
    }
    return merged;
  }

  /**
   * The description and default of a field, layered along the class chain from the base class to
   * `target`: at each class its `@Field` options, then its `fieldTraits`. The nearest class wins,
   * and on one class `fieldTraits` (given from outside, later) wins over `@Field`.
   */
  fieldTraitsOf(target: Function, propertyName: string): FieldTraits {
    let description: string | undefined;
    let defaultValue: FieldTraits['default'];
    for (const type of this.ancestry(target)) {
      for (const layer of [
        this.fields.get(type)?.get(propertyName)?.options,
        this.traits.get(type)?.get(propertyName),
      ]) {
        if (layer?.description !== undefined) description = layer.description;
        if (layer?.default !== undefined) defaultValue = layer.default;
      }
    }
    return { description, default: defaultValue };
  }

  /** The nearest `@Tool` description along the prototype chain, or an own static `description` on the way. */
  inheritedDescriptionOf(target: Function): string | undefined {
    for (const type of this.ancestry(target).reverse()) {
      const fromTool = this.tools.get(type)?.description;
      if (fromTool !== undefined) return fromTool;
      const own = Object.getOwnPropertyDescriptor(type, 'description');
      if (own !== undefined && typeof own.value === 'string') return own.value;
    }
    return undefined;
  }

  /**
   * The contract of a class: its own, else the nearest `@Contract(...)` options along the prototype
   * chain. A `toolContract` factory belongs to its class alone: the descriptor it returns carries
   * that class's name and schema, which a subclass does not share.
   */
  contractOf(target: Function): ContractSource | undefined {
    for (const type of this.ancestry(target).reverse()) {
      const source = this.contracts.get(type);
      if (source !== undefined && (source.kind === 'options' || type === target)) return source;
    }
    return undefined;
  }

  hasAnyMetadata(target: Function): boolean {
    return this.ancestry(target).some((type) => this.tools.has(type) || this.fields.has(type));
  }

  /**
   * The class and its ancestors, base first, each with the fields its standard `@Field` decorators
   * left in `Symbol.metadata` read in. That metadata is complete once the class is defined, before
   * anything can have been cached about the class, so reading it in is not a change.
   */
  private ancestry(target: Function): Function[] {
    const chain = ancestry(target);
    for (const type of chain) {
      if (this.adopted.has(type)) continue;
      this.adopted.add(type);
      const records = standardFieldsOf(type);
      if (records === undefined) continue;
      let map = this.fields.get(type);
      if (map === undefined) this.fields.set(type, (map = new Map()));
      for (const record of records) if (!map.has(record.propertyName)) map.set(record.propertyName, record);
    }
    return chain;
  }
}

function definedTraits(traits: FieldTraits): FieldTraits {
  return {
    ...(traits.description !== undefined ? { description: traits.description } : {}),
    ...(traits.default !== undefined ? { default: traits.default } : {}),
  };
}

/** The class and its ancestors, base first. */
function ancestry(target: Function): Function[] {
  const chain: Function[] = [];
  for (
    let type: unknown = target;
    typeof type === 'function' && type !== Function.prototype;
    type = Object.getPrototypeOf(type)
  )
    chain.unshift(type);
  return chain;
}

const STORAGE_KEY = Symbol.for('wuwe.toolMetadataStorage');

/** The one process-wide storage (shared by every copy of the package). */
export function getToolMetadataStorage(): ToolMetadataStorage {
  const holder = globalThis as unknown as Record<symbol, ToolMetadataStorage | undefined>;
  return (holder[STORAGE_KEY] ??= new ToolMetadataStorage());
}
