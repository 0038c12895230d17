import {
  ArrayMaxSize,
  IsArray,
  IsBase64,
  IsDefined,
  IsEnum,
  IsInt,
  IsNumber,
  IsString,
  MaxLength,
  Min,
} from 'class-validator';
import { Field, parseToolArguments, Tool, ToolArgumentError, ToolDefinitionError } from '../../lib';
import { fieldTraits, makeLlmTool } from '../../lib/tools';
import { getToolMetadataStorage } from '../../lib/reflect/metadata-storage';

enum Color {
  Red = 'red',
  Blue = 'blue',
}

enum Mixed {
  Name = 'name',
  Two = 2,
}

enum Step {
  Down = -1,
  Stay = 0,
  Up = 1,
}

function definitionError(run: () => unknown): ToolDefinitionError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ToolDefinitionError);
    return error as ToolDefinitionError;
  }
  throw new Error('expected a ToolDefinitionError');
}

function argumentIssues(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ToolArgumentError);
    return (error as ToolArgumentError).issues.map((issue) => `${issue.pointer} ${issue.keyword}`);
  }
  throw new Error('expected a ToolArgumentError');
}

describe('makeLlmTool with class-validator decorators beside @Field', () => {
  it('keeps the array item type of `type: () => [String]` when @IsArray() says `items: {}`', () => {
    @Tool({ description: 'd' })
    class Tagged {
      invoke(): void {}
      @Field({ type: () => [String] }) @IsArray() @ArrayMaxSize(3) tags!: string[];
    }
    expect((makeLlmTool(Tagged).inputSchema as any).properties.tags).toEqual({
      type: 'array',
      items: { type: 'string' },
      maxItems: 3,
    });
    expect(argumentIssues(() => parseToolArguments(Tagged, { tags: [1, {}] }))).toEqual([
      '/tags/0 type',
      '/tags/1 type',
    ]);
  });

  it('keeps an explicit integer when @IsNumber() says number, and narrows number to integer for @IsInt()', () => {
    @Tool({ description: 'd' })
    class Counted {
      invoke(): void {}
      @Field({ type: 'integer' }) @IsNumber() @Min(0) count!: number;
      @Field() @IsInt() days!: number;
    }
    const properties = (makeLlmTool(Counted).inputSchema as any).properties;
    expect(properties.count).toEqual({ type: 'integer', minimum: 0 });
    expect(properties.days).toEqual({ type: 'integer' });
    expect(argumentIssues(() => parseToolArguments(Counted, { count: 1.5, days: 2.5 }))).toEqual([
      '/count type',
      '/days type',
    ]);
  });

  it('merges per-item constraints into the item schema', () => {
    @Tool({ description: 'd' })
    class Short {
      invoke(): void {}
      @Field({ type: () => [String] }) @MaxLength(3, { each: true }) words!: string[];
    }
    expect((makeLlmTool(Short).inputSchema as any).properties.words).toEqual({
      type: 'array',
      items: { type: 'string', maxLength: 3 },
    });
  });

  it('accepts @IsDefined(), which strict ajv would refuse as `not: {type: "null"}` beside a string type', () => {
    @Tool({ description: 'd' })
    class Defined {
      invoke(): void {}
      @Field() @IsDefined() city!: string;
    }
    expect((makeLlmTool(Defined).inputSchema as any).properties.city).toEqual({ type: 'string' });
    expect((makeLlmTool(Defined).inputSchema as any).required).toEqual(['city']);
  });

  it('takes the item type of an array declared with class-validator only', () => {
    @Tool({ description: 'd' })
    class ValidatorArrays {
      invoke(): void {}
      @IsArray() @IsString({ each: true }) tags!: string[];
      @IsEnum(Color, { each: true }) colors!: Color[];
      @IsInt({ each: true }) counts!: number[];
    }
    const properties = (makeLlmTool(ValidatorArrays).inputSchema as any).properties;
    expect(properties.tags).toEqual({ type: 'array', items: { type: 'string' } });
    expect(properties.colors).toEqual({ type: 'array', items: { type: 'string', enum: ['red', 'blue'] } });
    expect(properties.counts).toEqual({ type: 'array', items: { type: 'integer' } });
    expect(
      argumentIssues(() => parseToolArguments(ValidatorArrays, { tags: [1], colors: ['green'], counts: [1.5] })),
    ).toEqual(['/tags/0 type', '/colors/0 enum', '/counts/0 type']);
  });

  it('names the class when strict ajv refuses what class-validator-jsonschema emitted, at makeLlmTool time', () => {
    @Tool({ description: 'd' })
    class Encoded {
      invoke(): void {}
      @Field() @IsBase64() payload!: string;
    }
    const error = definitionError(() => makeLlmTool(Encoded));
    expect(error.code).toBe('invalid_schema');
    expect(error.message).toMatch(/^Encoded: .*unknown format "base64"/);
  });
});

describe('makeLlmTool enums', () => {
  it('covers mixed string and number enums, negative numeric enums, and `enum` on an array property', () => {
    @Tool({ description: 'd' })
    class Enums {
      invoke(): void {}
      @Field({ enum: Mixed }) mixed!: Mixed;
      @Field({ enum: Step }) step!: Step;
      @Field({ enum: Color }) colors!: Color[];
    }
    const properties = (makeLlmTool(Enums).inputSchema as any).properties;
    expect(properties.mixed).toEqual({ type: ['string', 'number'], enum: ['name', 2] });
    expect(properties.step).toEqual({ type: 'integer', enum: [-1, 0, 1] });
    expect(properties.colors).toEqual({ type: 'array', items: { type: 'string', enum: ['red', 'blue'] } });
    expect(parseToolArguments(Enums, { mixed: 2, step: -1, colors: ['blue'] })).toMatchObject({
      mixed: 2,
      step: -1,
      colors: ['blue'],
    });
    expect(argumentIssues(() => parseToolArguments(Enums, { mixed: 'Two', step: 2, colors: ['Red'] }))).toEqual([
      '/mixed enum',
      '/step enum',
      '/colors/0 enum',
    ]);
  });
});

describe('makeLlmTool defaults', () => {
  it('refuses a default outside its enum at definition time, naming class and property', () => {
    @Tool({ description: 'd' })
    class BadEnumDefault {
      invoke(): void {}
      @Field({ enum: ['a', 'b'], default: 'zz' }) choice!: string;
    }
    const error = definitionError(() => makeLlmTool(BadEnumDefault));
    expect(error.code).toBe('invalid_default');
    expect(error.message).toMatch(/^BadEnumDefault\.choice: default "zz" does not match/);
  });

  it('refuses a default of the wrong type, given by @Field or by fieldTraits, before any call', () => {
    @Tool({ description: 'd' })
    class WrongType {
      invoke(): void {}
      @Field({ default: 'soon' as unknown as number }) delayMs!: number;
    }
    expect(definitionError(() => parseToolArguments(WrongType, {})).message).toMatch(
      /^WrongType\.delayMs: default "soon"/,
    );

    @Tool({ description: 'd' })
    class FromTraits {
      invoke(): void {}
      @Field({ type: 'integer' }) nights!: number;
    }
    fieldTraits(FromTraits, 'nights', { default: 1.5 });
    expect(definitionError(() => makeLlmTool(FromTraits)).code).toBe('invalid_default');
  });

  it('checks defaults of nested classes, inline and under $defs', () => {
    class Window {
      @Field({ type: 'integer', default: -1 }) @Min(0) hours!: number;
    }
    @Tool({ description: 'd' })
    class Scheduled {
      invoke(): void {}
      @Field({ type: () => Window, ref: true }) window!: Window;
    }
    const error = definitionError(() => makeLlmTool(Scheduled));
    expect(error.code).toBe('invalid_default');
    expect(error.message).toMatch(/^Window\.hours: default -1 .*must be >= 0 \(nested in tool class Scheduled\)$/);
  });

  it('accepts a valid default with optional, and applies it', () => {
    @Tool({ description: 'd' })
    class Fine {
      invoke(): void {}
      @Field({ optional: true, default: 3, type: 'integer' }) retries?: number;
      @Field({ enum: Color, default: Color.Blue }) color!: Color;
    }
    expect((makeLlmTool(Fine).inputSchema as any).required).toEqual([]);
    expect(parseToolArguments(Fine, {})).toMatchObject({ retries: 3, color: 'blue' });
  });
});

describe('makeLlmTool inheritance', () => {
  it('lets a subclass tool with its own @Tool name inherit the parent description and fields', () => {
    @Tool({ name: 'search', description: 'Search the index.' })
    class Search {
      invoke(): void {}
      @Field() query!: string;
    }
    @Tool({ name: 'search_recent' })
    class SearchRecent extends Search {
      @Field({ type: 'integer' }) days!: number;
    }
    const tool = makeLlmTool(SearchRecent);
    expect(tool.name).toBe('search_recent');
    expect(tool.description).toBe('Search the index.');
    expect(Object.keys((tool.inputSchema as any).properties)).toEqual(['query', 'days']);
    expect(makeLlmTool(Search).name).toBe('search');
  });

  it('takes a subclass override of a field, options and description both', () => {
    @Tool({ description: 'd' })
    class Base {
      invoke(): void {}
      @Field({ description: 'Base id.' }) id!: string;
    }
    @Tool({ description: 'd' })
    class Loose extends Base {
      @Field({ description: 'Optional here.', optional: true }) declare id: string;
    }
    expect((makeLlmTool(Loose).inputSchema as any).properties.id).toEqual({
      type: 'string',
      description: 'Optional here.',
    });
    expect((makeLlmTool(Loose).inputSchema as any).required).toEqual([]);
    expect((makeLlmTool(Base).inputSchema as any).required).toEqual(['id']);
  });

  it('layers fieldTraits along the class chain: nearest class wins, base traits still fill the rest', () => {
    @Tool({ description: 'd' })
    class Vendor {
      invoke(): void {}
      @Field({ description: 'Vendor text.' }) city!: string;
    }
    fieldTraits(Vendor, 'city', { default: 'Paris' });
    @Tool({ description: 'd' })
    class Ours extends Vendor {}
    fieldTraits(Ours, 'city', { description: 'Our text.' });
    expect((makeLlmTool(Ours).inputSchema as any).properties.city).toEqual({
      type: 'string',
      description: 'Our text.',
      default: 'Paris',
    });
    expect((makeLlmTool(Vendor).inputSchema as any).properties.city).toEqual({
      type: 'string',
      description: 'Vendor text.',
      default: 'Paris',
    });
  });

  it('lets fieldTraits override a @Field description of the same class', () => {
    @Tool({ description: 'd' })
    class Fixed {
      invoke(): void {}
      @Field({ description: 'Old.' }) city!: string;
    }
    fieldTraits(Fixed, 'city', { description: 'New.' });
    expect((makeLlmTool(Fixed).inputSchema as any).properties.city.description).toBe('New.');
  });
});

describe('makeLlmTool $defs', () => {
  it('gives two different classes with one name two $defs entries, each $ref resolving to its own', () => {
    const first = (() => {
      class Item {
        @Field() a!: string;
      }
      return Item;
    })();
    const second = (() => {
      class Item {
        @Field() b!: number;
      }
      return Item;
    })();
    @Tool({ description: 'd' })
    class Pair {
      invoke(): void {}
      @Field({ type: () => first, ref: true }) x!: unknown;
      @Field({ type: () => second, ref: true }) y!: unknown;
    }
    const schema = makeLlmTool(Pair).inputSchema as any;
    const target = (ref: string): any => schema.$defs[ref.replace('#/$defs/', '')];
    expect(Object.keys(target(schema.properties.x.$ref).properties)).toEqual(['a']);
    expect(Object.keys(target(schema.properties.y.$ref).properties)).toEqual(['b']);
    const parsed = parseToolArguments(Pair, { x: { a: 'q' }, y: { b: 1 } }) as any;
    expect(parsed.x).toBeInstanceOf(first);
    expect(parsed.y).toBeInstanceOf(second);
  });
});

describe('makeLlmTool cache', () => {
  it('keeps the compiled tool when unrelated classes are decorated, and rebuilds it when its own metadata changes', () => {
    @Tool({ description: 'd' })
    class Stable {
      invoke(): void {}
      @Field() a!: string;
    }
    const before = makeLlmTool(Stable);
    const revision = getToolMetadataStorage().currentRevision;
    @Tool({ description: 'd' })
    class Unrelated {
      invoke(): void {}
      @Field() b!: string;
    }
    expect(getToolMetadataStorage().currentRevision).toBeGreaterThan(revision);
    expect(makeLlmTool(Unrelated).name).toBe('Unrelated');
    expect(makeLlmTool(Stable)).toBe(before);
    fieldTraits(Stable, 'a', { description: 'now described' });
    const after = makeLlmTool(Stable);
    expect(after).not.toBe(before);
    expect((after.inputSchema as any).properties.a.description).toBe('now described');
  });

  it('rebuilds when a nested class changes', () => {
    class Inner {
      @Field() v!: string;
    }
    @Tool({ description: 'd' })
    class Outer {
      invoke(): void {}
      @Field({ type: () => Inner }) inner!: Inner;
    }
    const before = makeLlmTool(Outer);
    fieldTraits(Inner, 'v', { description: 'inner described' });
    expect((makeLlmTool(Outer).inputSchema as any).properties.inner.properties.v.description).toBe('inner described');
    expect(makeLlmTool(Outer)).not.toBe(before);
  });
});

describe('makeLlmTool names', () => {
  it('checks the class-name default of a tool described without @Tool', () => {
    class Réservation {
      static description = 'Book.';
      @Field() day!: string;
    }
    const error = definitionError(() => makeLlmTool(Réservation));
    expect(error.code).toBe('invalid_tool_name');
    expect(error.message).toMatch(/tool name 'Réservation' must match/);
  });

  it('keeps $defs keys and $ref fragments within [A-Za-z0-9_-], however the class is named', () => {
    class Adresse_é {
      @Field() rue!: string;
    }
    class $Money {
      @Field() cents!: number;
    }
    @Tool({ description: 'd' })
    class Order {
      invoke(): void {}
      @Field({ type: () => Adresse_é, ref: true }) to!: Adresse_é;
      @Field({ type: () => $Money, ref: true }) total!: $Money;
    }
    const schema = makeLlmTool(Order).inputSchema as any;
    for (const key of Object.keys(schema.$defs)) expect(key).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(schema.properties.to.$ref).toBe('#/$defs/Adresse__');
    expect(schema.properties.total.$ref).toBe('#/$defs/_Money');
    expect(parseToolArguments(Order, { to: { rue: 'x' }, total: { cents: 1 } }).to).toBeInstanceOf(Adresse_é);
  });
});

describe('makeLlmTool field names', () => {
  it("refuses an argument named 'invoke', which would replace the method on every call", () => {
    // @ts-expect-error: the compiler already sees that `invoke` is no method here
    @Tool({ description: 'd' })
    class Shadowed {
      @Field() invoke!: string;
    }
    const error = definitionError(() => makeLlmTool(Shadowed));
    expect(error.code).toBe('invalid_field_options');
    expect(error.message).toMatch(/^Shadowed\.invoke: /);
  });

  it('refuses an argument named prototype, a key argument parsing always refuses', () => {
    class Inner {
      @Field() prototype!: string;
    }
    @Tool({ description: 'd' })
    class Holder {
      invoke(): void {}
      @Field({ type: () => Inner }) inner!: Inner;
    }
    expect(definitionError(() => makeLlmTool(Holder)).message).toMatch(/^Inner\.prototype: /);
  });

  it("still allows 'invoke' as the name of a nested class's field", () => {
    class Step {
      @Field() invoke!: string;
    }
    @Tool({ description: 'd' })
    class Plan {
      invoke(): void {}
      @Field({ type: () => [Step] }) steps!: Step[];
    }
    expect(parseToolArguments(Plan, { steps: [{ invoke: 'x' }] }).steps[0].invoke).toBe('x');
  });
});

describe('@Field placement', () => {
  it('refuses a static member at decoration time instead of ignoring it', () => {
    const error = definitionError(() => {
      class WithStatic {
        @Field() static city: string;
      }
      return WithStatic;
    });
    expect(error.message).toMatch(/^WithStatic\.city: @Field\(\) marks instance properties/);
  });
});

describe('@Field enum values', () => {
  it('refuses enum values JSON cannot carry (NaN, Infinity) instead of sending null to the model', () => {
    @Tool({ description: 'd' })
    class Limits {
      invoke(): void {}
      @Field({ enum: [1, Number.POSITIVE_INFINITY] }) cap!: number;
    }
    const error = definitionError(() => makeLlmTool(Limits));
    expect(error.code).toBe('invalid_field_options');
    expect(error.message).toMatch(/^Limits\.cap: `enum` value Infinity has no JSON form/);
  });
});
