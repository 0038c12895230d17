import { Contract, Field, parseToolArguments, Tool, ToolDefinitionError, toolDescriptorOf } from '../../lib';
import { makeLlmTool } from '../../lib/tools';

/**
 * Decorates classes by the TC39 protocol, as compiled standard decorators do: each class has a
 * metadata object inheriting from its parent's, field decorators get `(undefined, context)`, class
 * decorators `(class, context)`, and the metadata object ends up on the class under `Symbol.metadata`.
 */
function decorate(
  target: Function,
  fields: Record<
    string,
    { decorator: (value: undefined, context: never) => void; static?: boolean; private?: boolean }
  >,
  classDecorators: ((value: Function, context: never) => void)[] = [],
): void {
  const metadataSymbol = (Symbol as unknown as { metadata: symbol }).metadata;
  const parent = Object.getPrototypeOf(target) as Record<symbol, object | undefined>;
  const metadata = Object.create(parent[metadataSymbol] ?? null) as object;
  for (const [name, field] of Object.entries(fields))
    field.decorator(undefined, {
      kind: 'field',
      name,
      static: field.static ?? false,
      private: field.private ?? false,
      metadata,
      addInitializer() {},
    } as never);
  for (const decorator of classDecorators)
    decorator(target, { kind: 'class', name: target.name, metadata, addInitializer() {} } as never);
  Object.defineProperty(target, metadataSymbol, { value: metadata, configurable: true });
}

const asStandard = <T>(decorator: T): ((value: undefined, context: never) => void) => decorator as never;

describe('standard (TC39) decorators', () => {
  it('has Symbol.metadata once wuwe is loaded', () => {
    expect(typeof (Symbol as unknown as { metadata?: unknown }).metadata).toBe('symbol');
  });

  it('reads fields from context.metadata, with @Tool and @Contract as class decorators, and inherits them', () => {
    class Search {
      query!: string;
      invoke(): string {
        return this.query;
      }
    }
    decorate(Search, { query: { decorator: asStandard(Field({ type: String })) } }, [
      Tool({ name: 'search', description: 'Search.' }) as never,
      Contract({ sideEffect: 'read' }),
    ]);
    class PagedSearch extends Search {
      page!: number;
    }
    decorate(PagedSearch, { page: { decorator: asStandard(Field({ type: 'integer', optional: true })) } }, [
      Tool({ name: 'paged_search', description: 'Paged.' }) as never,
    ]);

    expect(makeLlmTool(Search).inputSchema).toEqual({
      type: 'object',
      properties: { query: { type: 'string' } },
      required: ['query'],
      additionalProperties: false,
    });
    expect(toolDescriptorOf(Search)).toMatchObject({ name: 'search', sideEffect: 'read' });
    expect(makeLlmTool(PagedSearch).inputSchema).toMatchObject({
      properties: { query: { type: 'string' }, page: { type: 'integer' } },
      required: ['query'],
    });
    expect(toolDescriptorOf(PagedSearch)).toMatchObject({ name: 'paged_search', sideEffect: 'read' });
    expect(parseToolArguments(PagedSearch, { query: 'q', page: 2 })).toMatchObject({ query: 'q', page: 2 });
  });

  it('requires a type where none is known, naming the class at makeLlmTool', () => {
    class Untyped {
      city!: string;
      invoke(): void {}
    }
    decorate(Untyped, { city: { decorator: asStandard(Field()) } }, [Tool({ description: 'd' }) as never]);
    expect(() => makeLlmTool(Untyped)).toThrow(
      expect.objectContaining({ code: 'missing_design_type', className: 'Untyped', propertyName: 'city' }),
    );
  });

  it('refuses static and #private fields, and a runtime without decorator metadata', () => {
    class Members {
      invoke(): void {}
    }
    decorate(Members, { count: { decorator: asStandard(Field({ type: Number })), static: true } }, [
      Tool({ description: 'd' }) as never,
    ]);
    expect(() => makeLlmTool(Members)).toThrow(
      expect.objectContaining({ code: 'invalid_field_options', className: 'Members', propertyName: 'count' }),
    );
    class Hidden {
      invoke(): void {}
    }
    decorate(Hidden, { '#secret': { decorator: asStandard(Field({ type: String })), private: true } }, [
      Tool({ description: 'd' }) as never,
    ]);
    expect(() => makeLlmTool(Hidden)).toThrow(/#private field cannot be filled/);
    const noMetadata = (): void =>
      asStandard(Field({ type: String }))(undefined, {
        kind: 'field',
        name: 'x',
        static: false,
        private: false,
      } as never);
    expect(noMetadata).toThrow(ToolDefinitionError);
    expect(noMetadata).toThrow(/no context.metadata/);
  });
});
