import { Type } from 'class-transformer';
import { Field, parseToolArguments, Tool, ToolArgumentError, ToolDefinitionError } from '../../lib';
import { makeLlmTool, tryParseToolArguments } from '../../lib/tools';

enum Unit {
  Celsius = 'celsius',
  Fahrenheit = 'fahrenheit',
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

/** Applies `@Field(options)` the way a compiler without `design:type` does: no metadata is emitted. */
function fieldWithoutMetadata(target: Function, propertyName: string, options: Parameters<typeof Field>[0] = {}): void {
  (Field(options) as (prototype: object, key: string) => void)(target.prototype, propertyName);
}

describe('reflection is never silently wrong', () => {
  describe('literal unions and `?` optionals (invisible to design:type, refused by the compiler)', () => {
    it('reflects a literal union given with enum, so a value outside it never reaches invoke()', () => {
      @Tool({ description: 'd' })
      class Pace {
        @Field({ enum: ['fast', 'slow'] }) mode!: 'fast' | 'slow';
        @Field({ enum: [1, 2], array: true }) gears!: (1 | 2)[];
        invoke(): string {
          return this.mode;
        }
      }
      const schema = makeLlmTool(Pace).inputSchema as any;
      expect(schema.properties.mode).toEqual({ type: 'string', enum: ['fast', 'slow'] });
      expect(schema.properties.gears).toEqual({ type: 'array', items: { type: 'integer', enum: [1, 2] } });
      expect(tryParseToolArguments(Pace, { mode: 'turbo', gears: [1] }).ok).toBe(false);
    });

    it('refuses at compile time a literal union without enum and a `?` property without optional', () => {
      class Unchecked {
        // @ts-expect-error: a literal union would be reflected as a plain string
        @Field() mode!: 'fast' | 'slow';
        // @ts-expect-error: an array of a literal union too
        @Field({ type: [String] }) modes!: ('fast' | 'slow')[];
        // @ts-expect-error: `?` is invisible to design:type; the field would be required
        @Field() note?: string;
        @Field({ optional: true }) memo?: string;
        @Field({ default: 'x' }) label?: string;
      }
      expect((makeLlmTool as (target: Function) => unknown).length).toBe(1);
      expect(Unchecked).toBeDefined();
    });
  });

  describe('initializer defaults', () => {
    it('reads an initializer from a fresh instance: the field is optional with that default', () => {
      @Tool({ description: 'd' })
      class Forecast {
        @Field() city!: string;
        @Field({ type: 'integer' }) days = 3;
        @Field({ type: String, default: 'metric' }) units = 'metric';
        invoke(): string {
          return `${this.city} ${this.days}`;
        }
      }
      const schema = makeLlmTool(Forecast).inputSchema as any;
      expect(schema.properties.days).toEqual({ type: 'integer', default: 3 });
      expect(schema.required).toEqual(['city']);
      expect(parseToolArguments(Forecast, { city: 'Oslo' }).days).toBe(3);
    });

    it('refuses an initializer that differs from the explicit default, or that is not JSON', () => {
      @Tool({ description: 'd' })
      class Conflict {
        @Field({ type: 'integer', default: 2 }) days = 3;
        invoke(): void {}
      }
      expect(definitionError(() => makeLlmTool(Conflict))).toMatchObject({
        code: 'invalid_default',
        className: 'Conflict',
        propertyName: 'days',
      });
      @Tool({ description: 'd' })
      class NotJson {
        @Field({ type: 'string' }) when: unknown = new Map();
        invoke(): void {}
      }
      expect(definitionError(() => makeLlmTool(NotJson)).message).toMatch(
        /^NotJson\.when: its initializer value is not JSON/,
      );
    });
  });

  describe('undecorated properties', () => {
    it('warns once per class about an instance property that is no argument', () => {
      const emitWarning = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
      try {
        @Tool({ description: 'd' })
        class WithState {
          @Field() city!: string;
          retries = 2;
          invoke(): void {}
        }
        makeLlmTool(WithState);
        (WithState as unknown as { touched: number }).touched = 1;
        parseToolArguments(WithState, { city: 'x' });
        expect(emitWarning).toHaveBeenCalledTimes(1);
        expect(emitWarning.mock.calls[0][0]).toMatch(/^WithState: 'retries' is not a tool argument/);
        expect(emitWarning.mock.calls[0][1]).toEqual({ type: 'WuweWarning', code: 'WUWE_UNDECORATED_PROPERTY' });
      } finally {
        emitWarning.mockRestore();
      }
    });
  });

  describe('a tool class without invoke()', () => {
    it('is refused by makeLlmTool, not at call time', () => {
      // @ts-expect-error: the compiler refuses it too
      @Tool({ description: 'd' })
      class Idle {
        @Field() city!: string;
      }
      expect(definitionError(() => makeLlmTool(Idle))).toMatchObject({ code: 'missing_invoke', className: 'Idle' });
    });
  });

  describe('without design:type (esbuild, tsx, swc, Bun, vitest)', () => {
    it('names the cause and both fixes for a field without an explicit type', () => {
      class Street {
        street!: string;
        invoke(): void {}
      }
      Tool({ description: 'd' })(Street);
      fieldWithoutMetadata(Street, 'street');
      const error = definitionError(() => makeLlmTool(Street));
      expect(error).toMatchObject({ code: 'missing_design_type', className: 'Street', propertyName: 'street' });
      expect(error.message).toMatch(/emitted no design:type/);
      expect(error.message).toMatch(/type: String/);
      expect(error.message).toMatch(/emitDecoratorMetadata/);
    });

    it('refuses an enum or @Type field that does not say whether it is a list', () => {
      class Units {
        units!: Unit[];
        invoke(): void {}
      }
      Tool({ description: 'd' })(Units);
      fieldWithoutMetadata(Units, 'units', { enum: Unit });
      expect(definitionError(() => makeLlmTool(Units)).message).toMatch(/array: true/);

      class Address {
        street!: string;
      }
      fieldWithoutMetadata(Address, 'street', { type: String });
      class Addresses {
        addresses!: Address[];
        invoke(): void {}
      }
      Tool({ description: 'd' })(Addresses);
      Type(() => Address)(Addresses.prototype, 'addresses');
      fieldWithoutMetadata(Addresses, 'addresses');
      expect(definitionError(() => makeLlmTool(Addresses))).toMatchObject({
        code: 'missing_design_type',
        propertyName: 'addresses',
      });
    });

    it('gives the tsc schema when every type is explicit', () => {
      class Address {
        @Field() street!: string;
      }
      @Tool({ name: 'ship', description: 'd' })
      class WithMetadata {
        @Field({ enum: Unit }) units!: Unit[];
        @Field({ type: () => [Address] }) stops!: Address[];
        @Type(() => Address) @Field() home!: Address;
        @Field() note!: string;
        @Field({ type: () => [String] }) tags!: string[];
        invoke(): void {}
      }

      class BareAddress {
        street!: string;
      }
      fieldWithoutMetadata(BareAddress, 'street', { type: String });
      class WithoutMetadata {
        invoke(): void {}
      }
      Tool({ name: 'ship', description: 'd' })(WithoutMetadata);
      fieldWithoutMetadata(WithoutMetadata, 'units', { enum: Unit, array: true });
      fieldWithoutMetadata(WithoutMetadata, 'stops', { type: [BareAddress] });
      Type(() => BareAddress)(WithoutMetadata.prototype, 'home');
      fieldWithoutMetadata(WithoutMetadata, 'home', { array: false });
      fieldWithoutMetadata(WithoutMetadata, 'note', { type: 'string' });
      fieldWithoutMetadata(WithoutMetadata, 'tags', { type: [String] });

      expect(makeLlmTool(WithoutMetadata)).toEqual(makeLlmTool(WithMetadata));
      expect((makeLlmTool(WithoutMetadata).inputSchema as any).properties.units).toEqual({
        type: 'array',
        items: { type: 'string', enum: ['celsius', 'fahrenheit'] },
      });
      const parsed = parseToolArguments(WithoutMetadata as unknown as new () => { stops: BareAddress[] }, {
        units: ['celsius'],
        stops: [{ street: 'a' }],
        home: { street: 'b' },
        note: 'n',
        tags: [],
      });
      expect(parsed.stops[0]).toBeInstanceOf(BareAddress);
      expect(() => parseToolArguments(WithoutMetadata, { units: 'celsius' })).toThrow(ToolArgumentError);
    });

    it('refuses a list type with array: false, and a thunk returning more than one item type', () => {
      class Contradiction {
        invoke(): void {}
      }
      Tool({ description: 'd' })(Contradiction);
      fieldWithoutMetadata(Contradiction, 'tags', { type: [String], array: false });
      expect(definitionError(() => makeLlmTool(Contradiction)).code).toBe('invalid_field_options');
    });
  });
});
