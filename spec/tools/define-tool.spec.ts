import { toStandardJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { z } from 'zod';
import {
  ChatMessage,
  defineTool,
  LlmAgentRunner,
  MemoryRunStore,
  parseToolArguments,
  ReflectedToolProvider,
  ScriptedModelClient,
  ToolContractError,
  ToolDefinitionError,
  toolDescriptorOf,
} from '../../lib';
import { invokeReflectedTool, makeLlmTool } from '../../lib/tools';

function definitionError(run: () => unknown): ToolDefinitionError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ToolDefinitionError);
    return error as ToolDefinitionError;
  }
  throw new Error('expected a ToolDefinitionError');
}

describe('defineTool', () => {
  describe('with zod 4', () => {
    const calls: unknown[] = [];
    const forecast = defineTool({
      name: 'forecast',
      description: 'Weather for a city.',
      input: z.object({
        city: z.string().min(1).describe('City name.'),
        days: z.number().int().default(1),
        unit: z.enum(['celsius', 'fahrenheit']).optional(),
        slug: z
          .string()
          .refine((value) => value === value.toLowerCase(), 'must be lower case')
          .optional(),
      }),
      contract: { sideEffect: 'read', idempotency: 'idempotent' },
      invoke: (args, context) => {
        calls.push(args);
        // The parameter is typed from the schema's output.
        const days: number = args.days;
        // @ts-expect-error: not a field of the schema
        void args.country;
        return { city: args.city.toUpperCase(), days, host: (context?.host as string | undefined) ?? null };
      },
    });

    beforeEach(() => (calls.length = 0));

    it('shows the model the exported JSON Schema, and builds the descriptor with the contract', () => {
      const tool = makeLlmTool(forecast);
      expect(tool.name).toBe('forecast');
      expect(tool.inputSchema).toMatchObject({
        type: 'object',
        properties: {
          city: { type: 'string', minLength: 1, description: 'City name.' },
          unit: { enum: ['celsius', 'fahrenheit'] },
        },
        required: ['city'],
      });
      expect(tool.inputSchema.$schema).toBeUndefined();
      const name: 'forecast' = forecast.toolName;
      expect(name).toBe('forecast');
      expect(toolDescriptorOf(forecast)).toMatchObject({
        name: 'forecast',
        sideEffect: 'read',
        idempotency: 'idempotent',
      });
    });

    it('checks with ajv on the JSON Schema, then with the schema itself, before invoke()', async () => {
      expect(await invokeReflectedTool(forecast, { city: 'oslo' })).toMatchObject({
        data: { city: 'OSLO', days: 1, host: null },
      });
      expect(calls).toEqual([{ city: 'oslo', days: 1 }]);
      const refusedByAjv = await invokeReflectedTool(forecast, '{"city":"","days":1.5}');
      expect(refusedByAjv.error).toMatchObject({ code: 'invalid_arguments', category: 'validation' });
      expect(refusedByAjv.error!.message).toMatch(/\/city: .*\/days: must be integer/);
      const refusedBySchema = await invokeReflectedTool(forecast, { city: 'oslo', slug: 'Oslo' });
      expect(refusedBySchema.error).toMatchObject({ code: 'invalid_arguments', category: 'validation' });
      expect(refusedBySchema.error!.message).toMatch(/\/slug: must be lower case/);
      expect(calls).toHaveLength(1);
      expect(parseToolArguments(forecast, '{"city":"Rome"}').args).toEqual({ city: 'Rome', days: 1 });
    });

    it('runs through a provider and the runner, with a durable record', async () => {
      const store = new MemoryRunStore();
      const model = new ScriptedModelClient([
        { toolCalls: [{ id: 'c1', name: 'forecast', arguments: '{"city":"Lima"}' }] },
        (messages: readonly ChatMessage[]) => ({
          text: messages.some((message) => message.role === 'tool') ? 'done' : 'no tool result',
        }),
      ]);
      const provider = new ReflectedToolProvider([forecast], { context: 'host-1' });
      const result = await new LlmAgentRunner(model, provider).complete('weather?', { store, runId: 'defined' });
      expect(result.text).toBe('done');
      expect(result.toolCalls[0]).toMatchObject({ toolName: 'forecast' });
      const record = (await store.loadRun('defined'))!;
      expect(record.toolCalls[0]).toMatchObject({ toolName: 'forecast', status: 'admitted' });
      expect(record.toolCalls[0].outcome!.data).toEqual({ city: 'LIMA', days: 1, host: 'host-1' });
    });
  });

  describe('with valibot', () => {
    it('takes a schema wrapped by toStandardJsonSchema', async () => {
      const greet = defineTool({
        name: 'greet',
        description: 'Greets.',
        input: toStandardJsonSchema(v.object({ name: v.pipe(v.string(), v.minLength(2)) })),
        invoke: ({ name }) => `hello ${name}`,
      });
      expect(makeLlmTool(greet).inputSchema).toMatchObject({
        type: 'object',
        properties: { name: { type: 'string', minLength: 2 } },
        required: ['name'],
      });
      expect(await invokeReflectedTool(greet, { name: 'Ada' })).toMatchObject({ text: 'hello Ada' });
      expect((await invokeReflectedTool(greet, { name: 'A' })).error).toMatchObject({ code: 'invalid_arguments' });
    });

    it('refuses a schema without a JSON Schema export unless inputSchema is given', async () => {
      const schema = v.object({ name: v.string() });
      const error = definitionError(() =>
        defineTool({ name: 'plain', description: 'd', input: schema, invoke: () => 'x' }),
      );
      expect(error).toMatchObject({ code: 'invalid_schema', className: 'plain', propertyName: 'input' });
      expect(error.message).toMatch(/exports no JSON Schema.*toStandardJsonSchema/);
      const given = defineTool({
        name: 'plain',
        description: 'd',
        input: schema,
        inputSchema: {
          type: 'object',
          properties: { name: { type: 'string' } },
          required: ['name'],
          additionalProperties: false,
        },
        invoke: ({ name }) => name,
      });
      expect(await invokeReflectedTool(given, { name: 'x', extra: 1 })).toMatchObject({
        error: { code: 'invalid_arguments' },
      });
    });
  });

  describe('definition errors', () => {
    const input = z.object({ a: z.string() });

    it('refuses a bad name, a non-object schema, a schema strict ajv refuses and a contract typo at definition', () => {
      expect(
        definitionError(() => defineTool({ name: 'bad name', description: 'd', input, invoke: () => 1 })).code,
      ).toBe('invalid_tool_name');
      expect(
        definitionError(() => defineTool({ name: 'n', description: 'd', input: z.string(), invoke: () => 1 })).code,
      ).toBe('invalid_schema');
      expect(
        definitionError(() =>
          defineTool({
            name: 'n',
            description: 'd',
            input,
            inputSchema: { type: 'object', frobnicate: true },
            invoke: () => 1,
          }),
        ).code,
      ).toBe('invalid_schema');
      expect(() =>
        defineTool({ name: 'n', description: 'd', input, contract: { retries: 3 } as never, invoke: () => 1 }),
      ).toThrow(ToolContractError);
      expect(
        definitionError(() => defineTool({ name: 'n', description: 'd', input: {} as never, invoke: () => 1 })).code,
      ).toBe('invalid_schema');
    });
  });
});
