import { z } from 'zod';
import {
  Contract,
  defineTool,
  Field,
  LlmAgentRunner,
  LlmAgentRunResult,
  ReflectedToolProvider,
  ScriptedModelClient,
  Tool,
  ToolCallResult,
  ToolCallResultOf,
  ToolContractError,
  ToolDefinitionError,
  toolDescriptorOf,
} from '../../lib';
import { descriptorFromLlmTool } from '../../lib/contract';
import { makeLlmTool, ToolNameOf, UnknownToolCallResult } from '../../lib/tools';

/** Compiles only when `A` and `B` are the same type. */
type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertType<_T extends true>(): void {}

class Reading {
  @Field({ type: Number }) celsius!: number;
  @Field({ type: String, optional: true }) note?: string;
}

class WeatherReport {
  @Field({ type: String }) city!: string;
  @Field({ type: () => [Reading] }) readings!: Reading[];
}

@Tool({ name: 'get_weather', description: 'Weather for a city.' })
@Contract({ outputSchema: WeatherReport })
class GetWeather {
  static readonly toolName = 'get_weather';
  static readonly outputSchema = WeatherReport;
  @Field({ type: String }) city!: string;

  invoke(): unknown {
    if (this.city === 'Nowhere') return { city: this.city, readings: [{ celsius: 'warm' }] };
    return { city: this.city, readings: [{ celsius: 21 }, { celsius: 23, note: 'noon' }] };
  }
}

const forecast = defineTool({
  name: 'forecast',
  description: 'Days of forecast.',
  input: z.object({ days: z.number().int() }),
  invoke: ({ days }) => `${days} days of sun`,
});

@Tool({ name: 'plain', description: 'A decorated class without typed statics.' })
class Plain {
  @Field({ type: String }) value!: string;
  invoke(): string {
    return this.value;
  }
}

/** What a caller writes: every branch is typed from the bound tools, without casts. */
function summarize(result: LlmAgentRunResult<ToolCallResultOf<typeof GetWeather | typeof forecast>>): string[] {
  return result.toolCalls.map((call) => {
    if (call.toolName === 'get_weather') {
      if (!call.outcome.ok) return `get_weather failed: ${call.outcome.error.code}`;
      const first: number = call.outcome.data.readings[0].celsius;
      const note: string | undefined = call.outcome.data.readings[1]?.note;
      // @ts-expect-error: the output class has no such field
      void call.outcome.data.humidity;
      return `${call.outcome.data.city} ${first} ${note ?? ''}`.trim();
    }
    if (call.toolName === 'forecast')
      return call.outcome.ok ? `forecast: ${call.outcome.text ?? ''}` : `forecast failed: ${call.outcome.error.code}`;
    // Any other name is one no bound tool has (TypeScript does not narrow `string` away here): refused.
    return call.outcome.ok ? 'unexpected success' : `${call.toolName} refused: ${call.outcome.error.code}`;
  });
}

describe('typed tool calls', () => {
  it('ToolNameOf gives the union of the bound names; a decorated class without static toolName gives string', () => {
    assertType<Equals<ToolNameOf<typeof GetWeather | typeof forecast>, 'get_weather' | 'forecast'>>();
    assertType<Equals<ToolNameOf<typeof Plain>, string>>();
    // A call to a name no bound tool has is always a refusal.
    assertType<Equals<UnknownToolCallResult['outcome']['ok'], false>>();
    const name: ToolNameOf<typeof GetWeather | typeof forecast> = 'forecast';
    // @ts-expect-error: not a bound tool's name
    const typo: ToolNameOf<typeof GetWeather | typeof forecast> = 'get_wether';
    expect([name, typo]).toEqual(['forecast', 'get_wether']);
  });

  it('bindTools types the result: named calls, data typed from the output class, unknown names as failures', async () => {
    const model = new ScriptedModelClient([
      {
        toolCalls: [
          { id: 'c1', name: 'get_weather', arguments: '{"city":"Oslo"}' },
          { id: 'c2', name: 'forecast', arguments: '{"days":2}' },
          { id: 'c3', name: 'get_wether', arguments: '{}' },
          { id: 'c4', name: 'get_weather', arguments: '{"city":"Nowhere"}' },
        ],
      },
      { text: 'done' },
    ]);
    const runner = model.bindTools(GetWeather, forecast);
    const result = await runner.complete('weather?');
    assertType<Equals<typeof result, LlmAgentRunResult<ToolCallResultOf<typeof GetWeather | typeof forecast>>>>();
    expect(summarize(result)).toEqual([
      'Oslo 21 noon',
      'forecast: 2 days of sun',
      'get_wether refused: unknown_tool',
      'get_weather failed: output_validation',
    ]);

    // The typed runner is still an LlmAgentRunner, and its result a plain one, as before.
    const untyped: LlmAgentRunner = runner;
    const plainResult: { toolCalls: readonly ToolCallResult[] } = result;
    expect(untyped).toBe(runner);
    expect(plainResult.toolCalls).toHaveLength(4);
  });

  it('a ReflectedToolProvider types new LlmAgentRunner(model, provider); another provider or an untyped class leaves calls untyped', async () => {
    const model = new ScriptedModelClient([
      { toolCalls: [{ id: 'c1', name: 'forecast', arguments: '{"days":1}' }] },
      { text: 'done' },
    ]);
    const typed = new LlmAgentRunner(model, new ReflectedToolProvider([GetWeather, forecast]));
    assertType<
      Equals<
        Awaited<ReturnType<typeof typed.complete>>,
        LlmAgentRunResult<ToolCallResultOf<typeof GetWeather | typeof forecast>>
      >
    >();
    const result = await typed.complete('forecast?');
    expect(result.toolCalls.map((call) => call.toolName)).toEqual(['forecast']);

    const mixed = model.bindTools(GetWeather, Plain);
    assertType<Equals<Awaited<ReturnType<typeof mixed.complete>>, LlmAgentRunResult>>();
    const composed = model.bindTools(GetWeather, new ReflectedToolProvider([Plain]));
    assertType<Equals<Awaited<ReturnType<typeof composed.complete>>, LlmAgentRunResult>>();
    expect(mixed).not.toBe(composed);
  });
});

describe('contract.outputSchema as a class', () => {
  it('is reflected to the JSON Schema its fields describe, and the runner checks data against it', () => {
    expect(toolDescriptorOf(GetWeather).outputSchema).toEqual({
      type: 'object',
      properties: {
        city: { type: 'string' },
        readings: {
          type: 'array',
          items: {
            type: 'object',
            properties: { celsius: { type: 'number' }, note: { type: 'string' } },
            required: ['celsius'],
            additionalProperties: false,
          },
        },
      },
      required: ['city', 'readings'],
      additionalProperties: false,
    });
  });

  it('types a defineTool outcome: the class becomes the tool static outputSchema', () => {
    const report = defineTool({
      name: 'report',
      description: 'A weather report.',
      input: z.object({ city: z.string() }),
      contract: { outputSchema: WeatherReport, sideEffect: 'read' },
      invoke: ({ city }) => ({ city, readings: [] }),
    });
    expect(report.outputSchema).toBe(WeatherReport);
    expect(toolDescriptorOf(report).outputSchema).toEqual(toolDescriptorOf(GetWeather).outputSchema);
    type ReportCall = Extract<ToolCallResultOf<typeof report>, { toolName: 'report' }>;
    assertType<Equals<Extract<ReportCall['outcome'], { ok: true }>['data']['readings'][number]['celsius'], number>>();
    expect(makeLlmTool(report).name).toBe('report');
  });

  it('descriptorFromLlmTool takes JSON Schema only, and says so', () => {
    expect(() => descriptorFromLlmTool(makeLlmTool(Plain), { outputSchema: WeatherReport })).toThrow(ToolContractError);
    expect(() => descriptorFromLlmTool(makeLlmTool(Plain), { outputSchema: WeatherReport })).toThrow(
      /outputSchema is a class: give its JSON Schema here/,
    );
  });
});

describe('typed statics are checked against the tool', () => {
  function definitionError(target: Function): ToolDefinitionError {
    try {
      toolDescriptorOf(target);
    } catch (error) {
      if (error instanceof ToolDefinitionError) return error;
      throw error;
    }
    throw new Error('no ToolDefinitionError');
  }

  it('refuses a static toolName that is not the tool name (a subclass inherits its parent static)', () => {
    @Tool({ name: 'get_weather_v2', description: 'Weather, again.' })
    class Renamed {
      static readonly toolName = 'get_weather';
      @Field({ type: String }) city!: string;
      invoke(): string {
        return this.city;
      }
    }
    expect(definitionError(Renamed)).toMatchObject({
      code: 'static_mismatch',
      className: 'Renamed',
      propertyName: 'toolName',
    });
    expect(definitionError(Renamed).message).toMatch(
      /static toolName "get_weather" is not the tool's name 'get_weather_v2'/,
    );

    @Tool({ name: 'get_weather_hourly', description: 'Hourly weather.' })
    @Contract({ outputSchema: WeatherReport })
    class Hourly extends GetWeather {}
    expect(definitionError(Hourly)).toMatchObject({
      code: 'static_mismatch',
      className: 'Hourly',
      propertyName: 'toolName',
    });
  });

  it('refuses a static outputSchema that is not the contract class, or whose output is not checked strictly', () => {
    @Tool({ name: 'undeclared', description: 'Output class not in the contract.' })
    class Undeclared {
      static readonly outputSchema = WeatherReport;
      @Field({ type: String }) city!: string;
      invoke(): string {
        return this.city;
      }
    }
    expect(definitionError(Undeclared)).toMatchObject({
      code: 'static_mismatch',
      className: 'Undeclared',
      propertyName: 'outputSchema',
    });

    @Tool({ name: 'lenient', description: 'Output only warned about.' })
    @Contract({ outputSchema: WeatherReport, outputValidation: 'warning' })
    class Lenient {
      static readonly outputSchema = WeatherReport;
      @Field({ type: String }) city!: string;
      invoke(): string {
        return this.city;
      }
    }
    expect(definitionError(Lenient)).toMatchObject({ code: 'static_mismatch', propertyName: 'outputSchema' });
    expect(definitionError(Lenient).message).toMatch(
      /only outputValidation 'strict' guarantees \(this contract has 'warning'\)/,
    );
  });

  it('refuses them when the class is bound, before any call', () => {
    @Tool({ name: 'late', description: 'Mismatched name.' })
    class Late {
      static readonly toolName = 'early';
      @Field({ type: String }) city!: string;
      invoke(): string {
        return this.city;
      }
    }
    expect(() => new ScriptedModelClient([]).bindTools(Late)).toThrow(ToolDefinitionError);
  });
});
