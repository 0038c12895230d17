import { FieldRecord } from './field-record';

/** What a TC39 standard decorator receives as its second argument (the parts wuwe reads). */
export interface StandardDecoratorContext {
  readonly kind: string;
  readonly name: string | symbol | undefined;
  readonly static?: boolean;
  readonly private?: boolean;
  readonly metadata?: object;
}

/**
 * True when a decorator was called in the TC39 standard form `(value, context)`: the second
 * argument is a context object with a `kind`. The legacy (`experimentalDecorators`) form passes a
 * prototype or class and a property key instead.
 */
export function isStandardDecoratorContext(value: unknown): value is StandardDecoratorContext {
  return typeof value === 'object' && value !== null && typeof (value as { kind?: unknown }).kind === 'string';
}

/**
 * `Symbol.metadata`, installed as `Symbol.for('Symbol.metadata')` where the runtime lacks it (the
 * symbol TypeScript's and esbuild's decorator helpers use then). It must exist before a decorated
 * class is evaluated, which importing wuwe guarantees.
 */
export const SYMBOL_METADATA: symbol = installSymbolMetadata();

function installSymbolMetadata(): symbol {
  const holder = Symbol as unknown as { metadata?: symbol };
  if (typeof holder.metadata !== 'symbol')
    Object.defineProperty(Symbol, 'metadata', {
      value: Symbol.for('Symbol.metadata'),
      writable: false,
      enumerable: false,
      configurable: true,
    });
  return holder.metadata as symbol;
}

/** Key of the field records a class keeps in its own decorator metadata object. */
const FIELDS_KEY = Symbol.for('wuwe.standardFields');

/** Records a field of the class being decorated in `context.metadata` (own to that class). */
export function recordStandardField(metadata: object, record: FieldRecord): void {
  const holder = metadata as Record<symbol, FieldRecord[] | undefined>;
  if (!Object.prototype.hasOwnProperty.call(holder, FIELDS_KEY))
    Object.defineProperty(holder, FIELDS_KEY, { value: [], enumerable: false, configurable: true, writable: false });
  (holder[FIELDS_KEY] as FieldRecord[]).push(record);
}

/**
 * The field records standard `@Field` decorators left in the class's own `Symbol.metadata` object
 * (not its parent's: metadata objects inherit through their prototype), or undefined.
 */
export function standardFieldsOf(target: Function): readonly FieldRecord[] | undefined {
  if (!Object.prototype.hasOwnProperty.call(target, SYMBOL_METADATA)) return undefined;
  const metadata = (target as unknown as Record<symbol, unknown>)[SYMBOL_METADATA];
  if (typeof metadata !== 'object' || metadata === null || !Object.prototype.hasOwnProperty.call(metadata, FIELDS_KEY))
    return undefined;
  return (metadata as Record<symbol, readonly FieldRecord[]>)[FIELDS_KEY];
}
