import { IsInt, IsOptional, IsString, Max, Min, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import { Field, Tool, ToolDefinitionError } from '../../lib';
import { fieldTraits, makeLlmTool } from '../../lib/tools';

enum TemperatureUnit {
  Celsius = 'celsius',
  Fahrenheit = 'fahrenheit',
}

enum Priority {
  Low = 1,
  High = 2,
}

describe('makeLlmTool', () => {
  it('reflects the README weather tool', () => {
    @Tool({ description: 'Get the current weather for a city.' })
    class GetWeather {
      @Field({ description: 'City name.' })
      city!: string;

      @Field({ enum: TemperatureUnit, default: TemperatureUnit.Celsius, description: 'Preferred temperature unit.' })
      unit!: TemperatureUnit;

      invoke(): string {
        return `${this.city} is 22 degrees.`;
      }
    }
    expect(makeLlmTool(GetWeather)).toEqual({
      name: 'GetWeather',
      description: 'Get the current weather for a city.',
      inputSchema: {
        type: 'object',
        properties: {
          city: { type: 'string', description: 'City name.' },
          unit: {
            type: 'string',
            enum: ['celsius', 'fahrenheit'],
            default: 'celsius',
            description: 'Preferred temperature unit.',
          },
        },
        required: ['city'],
        additionalProperties: false,
      },
    });
  });

  it('covers scalars, numeric enums, literal unions, integers, optionals, arrays and nested classes', () => {
    class Address {
      @Field() street!: string;
      @Field({ optional: true }) zip?: string;
    }
    @Tool({ name: 'plan_trip', description: 'Plan a trip.' })
    class PlanTrip {
      @Field() budget!: number;
      @Field({ type: 'integer' }) nights!: number;
      @Field() refundable!: boolean;
      @Field({ enum: Priority }) priority!: Priority;
      @Field({ enum: ['window', 'aisle'] }) seat!: 'window' | 'aisle';
      @Field({ type: () => [String] }) tags!: string[];
      @Field({ type: () => Address }) home!: Address;
      @Field({ type: () => [Address] }) stops!: Address[];
      @Field({ optional: true }) note?: string;
      invoke(): string {
        return 'ok';
      }
    }
    const schema = makeLlmTool(PlanTrip).inputSchema as any;
    expect(schema.properties.budget).toEqual({ type: 'number' });
    expect(schema.properties.nights).toEqual({ type: 'integer' });
    expect(schema.properties.refundable).toEqual({ type: 'boolean' });
    expect(schema.properties.priority).toEqual({ type: 'integer', enum: [1, 2] });
    expect(schema.properties.seat).toEqual({ type: 'string', enum: ['window', 'aisle'] });
    expect(schema.properties.tags).toEqual({ type: 'array', items: { type: 'string' } });
    const address = {
      type: 'object',
      properties: { street: { type: 'string' }, zip: { type: 'string' } },
      required: ['street'],
      additionalProperties: false,
    };
    expect(schema.properties.home).toEqual(address);
    expect(schema.properties.stops).toEqual({ type: 'array', items: address });
    expect(schema.required).toEqual(['budget', 'nights', 'refundable', 'priority', 'seat', 'tags', 'home', 'stops']);
  });

  it('reflects class-validator decorators through class-validator-jsonschema', () => {
    class Address {
      @IsString() street!: string;
    }
    @Tool({ description: 'Forecast.' })
    class Forecast {
      @Field({ description: 'Days ahead.' }) @IsInt() @Min(1) @Max(14) days!: number;
      @IsOptional() @IsString() note?: string;
      @ValidateNested() @Type(() => Address) address!: Address;
      invoke(): string {
        return 'ok';
      }
    }
    const schema = makeLlmTool(Forecast).inputSchema as any;
    expect(schema.properties.days).toEqual({ type: 'integer', minimum: 1, maximum: 14, description: 'Days ahead.' });
    expect(schema.properties.note).toEqual({ type: 'string' });
    expect(schema.properties.address).toEqual({
      type: 'object',
      properties: { street: { type: 'string' } },
      required: ['street'],
      additionalProperties: false,
    });
    expect(schema.required).toEqual(['days', 'address']);
  });

  it('takes static and instance descriptions and fieldTraits', () => {
    class StaticDescribed {
      static description = 'From a static.';
      @Field() city!: string;
      invoke(): string {
        return '';
      }
    }
    class InstanceDescribed {
      description = 'From an instance.';
      @Field() city!: string;
      invoke(): string {
        return '';
      }
    }
    fieldTraits(StaticDescribed, 'city', { description: 'Traits description.', default: 'Paris' });
    const tool = makeLlmTool(StaticDescribed);
    expect(tool.description).toBe('From a static.');
    expect(tool.inputSchema).toEqual({
      type: 'object',
      properties: { city: { type: 'string', description: 'Traits description.', default: 'Paris' } },
      required: [],
      additionalProperties: false,
    });
    expect(makeLlmTool(InstanceDescribed).description).toBe('From an instance.');
    expect(Object.keys((makeLlmTool(InstanceDescribed).inputSchema as any).properties)).toEqual(['city']);
  });

  it('caches the schema per class', () => {
    @Tool({ description: 'd' })
    class Cached {
      invoke(): void {}
      @Field() a!: string;
    }
    expect(makeLlmTool(Cached)).toBe(makeLlmTool(Cached));
  });

  it('inherits fields of a parent tool class', () => {
    class Base {
      @Field() id!: string;
    }
    @Tool({ description: 'd' })
    class Child extends Base {
      invoke(): void {}
      @Field() extra!: boolean;
    }
    expect(Object.keys((makeLlmTool(Child).inputSchema as any).properties)).toEqual(['id', 'extra']);
  });

  describe('definition errors', () => {
    it('rejects a bad tool name at decoration time', () => {
      expect(() => {
        @Tool({ name: 'bad name!', description: 'd' })
        class BadName {
          invoke(): void {}
        }
        return BadName;
      }).toThrow(/bad name!.*must match/);
    });

    it('names class and property for untyped arrays, objects, functions, Map and Symbol', () => {
      const cases: Array<[string, () => Function]> = [
        [
          'Arrays.list',
          () => {
            class Arrays {
              @Field() list!: string[];
            }
            return Arrays;
          },
        ],
        [
          'Unions.value',
          () => {
            class Unions {
              @Field() value!: string | number;
            }
            return Unions;
          },
        ],
        [
          'Fns.fn',
          () => {
            class Fns {
              @Field() fn!: () => void;
            }
            return Fns;
          },
        ],
        [
          'Maps.map',
          () => {
            class Maps {
              @Field() map!: Map<string, string>;
            }
            return Maps;
          },
        ],
        [
          'Symbols.sym',
          () => {
            class Symbols {
              @Field({ type: () => Symbol as any }) sym!: symbol;
            }
            return Symbols;
          },
        ],
      ];
      for (const [where, define] of cases) {
        const target = define();
        (target as any).description = 'd';
        let caught: unknown;
        try {
          makeLlmTool(target);
        } catch (error) {
          caught = error;
        }
        expect(caught).toBeInstanceOf(ToolDefinitionError);
        expect((caught as ToolDefinitionError).code).toBe('unsupported_field_type');
        expect((caught as Error).message).toContain(where);
      }
    });

    it('rejects a nested class without decorators', () => {
      class Plain {
        street = '';
      }
      @Tool({ description: 'd' })
      class UsesPlain {
        invoke(): void {}
        @Field({ type: () => Plain }) address!: Plain;
      }
      expect(() => makeLlmTool(UsesPlain)).toThrow(/UsesPlain\.address: class Plain has no @Field/);
    });

    it('rejects circular nesting without ref and supports it with ref', () => {
      class Node {
        @Field() label!: string;
        @Field({ type: () => [Node], optional: true }) children?: Node[];
      }
      @Tool({ description: 'd' })
      class Tree {
        invoke(): void {}
        @Field({ type: () => Node }) root!: Node;
      }
      expect(() => makeLlmTool(Tree)).toThrow(expect.objectContaining({ code: 'circular_reference' }));

      class RefNode {
        @Field() label!: string;
        @Field({ type: () => [RefNode], optional: true, ref: true }) children?: RefNode[];
      }
      @Tool({ description: 'd' })
      class RefTree {
        invoke(): void {}
        @Field({ type: () => RefNode, ref: true }) root!: RefNode;
      }
      const schema = makeLlmTool(RefTree).inputSchema as any;
      expect(schema.properties.root).toEqual({ $ref: '#/$defs/RefNode' });
      expect(schema.$defs.RefNode.properties.children).toEqual({ type: 'array', items: { $ref: '#/$defs/RefNode' } });
    });

    it('requires a description', () => {
      @Tool()
      class Mute {
        invoke(): void {}
        @Field() a!: string;
      }
      expect(() => makeLlmTool(Mute)).toThrow(expect.objectContaining({ code: 'missing_description' }));
    });
  });
});
