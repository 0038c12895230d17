import { checkToolContractOptionKeys } from '../contract/compile-descriptor';
import { JsonSchema } from '../contract/json-schema';
import { TOOL_NAME_PATTERN } from '../contract/llm-tool';
import { ToolContractOptions, ToolOutputClass } from '../contract/tool-descriptor';
import { getToolMetadataStorage } from '../reflect/metadata-storage';
import { ToolDefinitionError } from '../reflect/tool-definition-error';
import { ValidationIssue, escapePointerToken } from '../validation/validation-issue';
import { compileInputValidator } from '../validation/schema-validator';
import { CompiledToolClass, deepFreeze, definitionChecked } from './compiled-tool-class';
import { registerSchemaTool } from './schema-tool-registry';
import {
  hasJsonSchemaExport,
  InferSchemaOutput,
  isStandardSchema,
  StandardSchemaIssue,
  StandardSchemaV1,
} from './standard-schema';
import { ToolArgumentError } from './tool-argument-error';

/** What a defined tool's `invoke(args, context)` receives as its context from a provider. */
export interface DefinedToolContext {
  /** Aborted at the deadline or when the run aborts. */
  readonly signal?: AbortSignal;
  /** The host context given to the provider. */
  readonly host?: unknown;
}

/** Options of {@link defineTool}; `Output` is the type of `contract.outputSchema`. */
export interface DefineToolOptions<
  S extends StandardSchemaV1,
  Name extends string = string,
  Output extends JsonSchema | ToolOutputClass = JsonSchema | ToolOutputClass,
> {
  /** Tool name; must match `^[a-zA-Z0-9_-]{1,64}$`. */
  readonly name: Name;
  /** Shown to the model. */
  readonly description: string;
  /** The arguments: any Standard Schema (zod 4, valibot, arktype). Its JSON Schema is what the model sees. */
  readonly input: S;
  /**
   * The JSON Schema of `input`, for a schema without a Standard JSON Schema export.
   * @default `input['~standard'].jsonSchema.input({ target: 'draft-07' })`
   */
  readonly inputSchema?: JsonSchema;
  /**
   * After the JSON Schema check, also run the schema's own `validate` (its refinements, transforms
   * and defaults) and pass its output to `invoke`. @default true
   */
  readonly validate?: boolean;
  /**
   * Tool Contract 2.0 options; defaults fill the rest. An `outputSchema` class (with `@Field`s) is
   * reflected to its JSON Schema, becomes the tool's static `outputSchema` and types its outcome.
   */
  readonly contract?: ToolContractOptions<Output>;
  /** Does the work, with the arguments typed from the schema's output. */
  invoke(args: InferSchemaOutput<S>, context: DefinedToolContext | undefined): unknown;
}

/** An instance of a defined tool: the checked arguments and the `invoke` the providers call. */
export interface DefinedToolInstance<Args> {
  /** The arguments, after the JSON Schema check. */
  args: Args;
  /** Runs the tool's `invoke(args, context)` with the checked arguments. */
  invoke(context?: DefinedToolContext): Promise<unknown>;
}

/**
 * A tool made by {@link defineTool}: a class, usable wherever a decorated tool class is; `toolName`
 * keeps the name's literal type, and an output class given as `contract.outputSchema` is its static
 * `outputSchema` (so `ToolCallResultOf` types its outcome's data).
 */
export type DefinedTool<
  Args,
  Name extends string = string,
  Output = undefined,
> = (new () => DefinedToolInstance<Args>) & {
  readonly toolName: Name;
} & (Output extends ToolOutputClass ? { readonly outputSchema: Output } : unknown);

/**
 * Defines a tool from any Standard Schema with a JSON Schema export (zod 4, valibot through
 * `toStandardJsonSchema`, arktype), as the AI SDK, the OpenAI Agents SDK and LangChain do. The
 * result is a class that goes where decorated tool classes go (`ReflectedToolProvider`,
 * `ToolRegistry`, `makeLlmTool`, `toolDescriptorOf`, `parseToolArguments`), so it has the same
 * descriptor, contract checks, runner, projection and durable record. Arguments are guarded and
 * checked with strict ajv against the exported JSON Schema (the bounded path classes take), then,
 * unless `validate: false`, by the schema's own `validate`; a refusal from either is an
 * `invalid_arguments` failure and `invoke` is not called. Definition problems (a bad name, no JSON
 * Schema export, a schema that is not an object schema, a schema strict ajv refuses, a
 * contract typo) throw here.
 *
 * @example
 * ```ts
 * const getWeather = defineTool({
 *   name: 'get_weather',
 *   description: 'Weather for a city.',
 *   input: z.object({ city: z.string(), days: z.number().int().default(1) }),
 *   invoke: ({ city, days }) => `${city}: sunny for ${days} days`,
 * });
 * new ReflectedToolProvider([getWeather]);
 * ```
 */
export function defineTool<
  S extends StandardSchemaV1,
  const Name extends string,
  Output extends JsonSchema | ToolOutputClass = JsonSchema,
>(options: DefineToolOptions<S, Name, Output>): DefinedTool<InferSchemaOutput<S>, Name, Output> {
  const { name, description, input, contract } = options;
  if (typeof name !== 'string' || !TOOL_NAME_PATTERN.test(name))
    throw new ToolDefinitionError(
      'invalid_tool_name',
      String(name),
      undefined,
      `tool name '${String(name)}' must match ${TOOL_NAME_PATTERN.source}`,
    );
  if (typeof description !== 'string' || description === '')
    throw new ToolDefinitionError('missing_description', name, undefined, 'a tool needs a description');
  if (!isStandardSchema(input))
    throw new ToolDefinitionError(
      'invalid_schema',
      name,
      'input',
      '`input` is not a Standard Schema (it has no `~standard.validate`)',
    );
  if (typeof options.invoke !== 'function')
    throw new ToolDefinitionError('missing_invoke', name, undefined, 'a tool needs an invoke(args) function');
  if (contract !== undefined) checkToolContractOptionKeys(name, contract);
  const inputSchema = deepFreeze(exportedJsonSchema(name, input, options.inputSchema));
  const check = options.validate === false ? undefined : input['~standard'].validate;
  const run = options.invoke;

  type Args = InferSchemaOutput<S>;
  const Defined = class implements DefinedToolInstance<Args> {
    static readonly toolName = name;
    args!: Args;
    async invoke(context?: DefinedToolContext): Promise<unknown> {
      let args = this.args;
      if (check !== undefined) {
        const result = await check(args);
        if (result.issues !== undefined)
          throw new ToolArgumentError('invalid_arguments', name, result.issues.map(toValidationIssue));
        args = result.value;
      }
      return run(args, context);
    }
  };
  Object.defineProperty(Defined, 'name', { value: name });
  if (typeof contract?.outputSchema === 'function')
    Object.defineProperty(Defined, 'outputSchema', { value: contract.outputSchema, enumerable: false });
  const storage = getToolMetadataStorage();
  storage.addTool(Defined, { name, description });
  if (contract !== undefined) storage.setContract(Defined, { kind: 'options', options: contract });
  const compiled: CompiledToolClass = Object.freeze({
    target: Defined,
    llmTool: Object.freeze({ name, description, inputSchema }),
    validate: definitionChecked(Defined, () => compileInputValidator(inputSchema)),
    plans: new Map(),
    fill: (instance: object, value: Record<string, unknown>) => {
      (instance as { args: unknown }).args = value;
      return instance;
    },
  });
  registerSchemaTool(Defined, compiled);
  return Defined as DefinedTool<Args, Name, Output>;
}

/** The JSON Schema of the arguments: given, or exported as draft-07 (ajv's dialect), without its `$schema` line. */
function exportedJsonSchema(name: string, input: StandardSchemaV1, given: JsonSchema | undefined): JsonSchema {
  let schema: unknown = given;
  if (schema === undefined) {
    if (!hasJsonSchemaExport(input))
      throw new ToolDefinitionError(
        'invalid_schema',
        name,
        'input',
        `this ${input['~standard'].vendor} schema exports no JSON Schema (Standard JSON Schema): give \`inputSchema\`, or wrap it (valibot: \`toStandardJsonSchema(schema)\` from @valibot/to-json-schema)`,
      );
    try {
      schema = input['~standard'].jsonSchema.input({ target: 'draft-07' });
    } catch (error) {
      throw new ToolDefinitionError(
        'invalid_schema',
        name,
        'input',
        `its JSON Schema export failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  if (typeof schema !== 'object' || schema === null || (schema as { type?: unknown }).type !== 'object')
    throw new ToolDefinitionError(
      'invalid_schema',
      name,
      'input',
      'tool arguments must be an object schema (`type: "object"`)',
    );
  const { $schema: _dialect, ...rest } = JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;
  return rest;
}

function toValidationIssue(issue: StandardSchemaIssue): ValidationIssue {
  const pointer = (issue.path ?? [])
    .map((segment) => `/${escapePointerToken(String(typeof segment === 'object' ? segment.key : segment))}`)
    .join('');
  return { pointer, message: issue.message, keyword: 'schema' };
}
