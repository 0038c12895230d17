import { mergeOwn } from '../../outcome/merge-own';
import { JsonSchema } from '../../contract/json-schema';
import { LlmTool } from '../../contract/llm-tool';
import { buildClassSchema } from '../../reflect/build-class-schema';
import { ClassType } from '../../reflect/field-options';
import { compileInstanceFiller, constructInstance } from '../../tools/build-instance';
import { compileToolClass, definitionChecked } from '../../tools/compiled-tool-class';
import { defineTool } from '../../tools/define-tool';
import { InferSchemaOutput, isStandardSchema, StandardSchemaV1 } from '../../tools/standard-schema';
import { formatIssues } from '../../tools/tool-argument-error';
import { DEFAULT_ARGUMENT_LIMITS } from '../../validation/argument-limits';
import { decodeToolArguments } from '../../validation/decode-arguments';
import { compileInputValidator } from '../../validation/schema-validator';
import { LlmAgentError } from '../runner-error';
import { ModelResponseFormat } from '../../model/model-types';
import { dropAbsentNulls } from '../../validation/absent-nulls';

/**
 * What `output` takes: a class whose fields are decorated with `@Field()` (no `@Tool` or `invoke` needed), or a
 * Standard Schema (zod 4, valibot, arktype) of an object.
 */
export type StructuredOutputSchema = ClassType<object> | StandardSchemaV1;

/**
 * The type of `result.output` for an `output` schema: the class's instance type, or the Standard Schema's output type.
 */
export type StructuredOutputOf<S> = S extends StandardSchemaV1
  ? InferSchemaOutput<S>
  : S extends ClassType<infer T>
    ? T
    : unknown;

/**
 * How the model is asked for the final answer: `native`, the provider's JSON-schema mode (the final
 * answer is the model's final text, a JSON value; tools stay available); `tool`, a final-answer tool;
 * `auto`, native when the model client supports it for the schema, else the tool.
 */
export type StructuredOutputMode = 'auto' | 'native' | 'tool';

/** How a run with `output` gets its final answer. */
export interface StructuredOutputPolicy {
  /**
   * Native JSON-schema mode or final-answer tool (see {@link StructuredOutputMode}); `native` on a client without it is
   * `invalid_run_options`. @default 'auto'
   */
  readonly mode?: StructuredOutputMode;
  /** Name of the final-answer tool the model is given, and of the schema in native mode. @default 'final_answer' */
  readonly toolName?: string;
  /**
   * Its description, shown to the model (in native mode, only when given). @default
   * DEFAULT_STRUCTURED_OUTPUT_POLICY.description
   */
  readonly description?: string;
  /**
   * How many times a bad final answer (invalid, given beside other tool calls, or missing: the model
   * ended its turn without the tool) is sent back to the model to repair; one more bad answer fails
   * the run with {@link wuwe!StructuredOutputError}. @default 2
   */
  readonly maxRepairs?: number;
}

/** The defaults of {@link StructuredOutputPolicy}. */
export const DEFAULT_STRUCTURED_OUTPUT_POLICY: Readonly<Required<StructuredOutputPolicy>> = Object.freeze({
  mode: 'auto',
  toolName: 'final_answer',
  description: 'Give your final answer. Call this tool once, alone, when you are done; its arguments are your answer.',
  maxRepairs: 2,
});

/** The outcome of checking one final answer. */
export type ParsedOutput =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly issues: string };

/** Options of {@link CompiledStructuredOutput.parse}. */
export interface ParseOutputOptions {
  /**
   * Read a `null` sent for an optional property whose schema does not accept `null` as "absent" (see
   * `dropAbsentNulls`), as OpenAI strict mode sends it. @default false
   */
  readonly nullsAreAbsent?: boolean;
}

/** A compiled `output`: the final-answer tool, the native response format, and the check of an answer. */
export interface CompiledStructuredOutput {
  readonly tool: LlmTool;
  /**
   * The same schema as a native response format (named after the tool; the description only when the policy gives one).
   */
  readonly format: ModelResponseFormat;
  readonly maxRepairs: number;
  /**
   * Decodes and validates an answer (JSON text or object); the value is the class instance, or the Standard Schema's
   * output.
   */
  parse(args: unknown, options?: ParseOutputOptions): Promise<ParsedOutput>;
}

/**
 * Compiles `output` and its policy once per run.
 *
 * @throws {@link LlmAgentError} `invalid_run_options` for an `output` that is neither a class nor a
 * Standard Schema, or a policy that cannot work; the class's or schema's own definition errors
 * (`ToolDefinitionError`) as tools raise them.
 */
export function compileStructuredOutput(
  output: unknown,
  policy: StructuredOutputPolicy = {},
): CompiledStructuredOutput {
  const key = `${String(policy.toolName)}\u0000${String(policy.description)}\u0000${String(policy.maxRepairs)}\u0000${String(policy.mode)}`;
  const cached =
    typeof output === 'object' || typeof output === 'function'
      ? compiledOutputs.get(output as object)?.get(key)
      : undefined;
  if (cached !== undefined) return cached;
  const compiled = compileUncached(output, policy);
  const forOutput = compiledOutputs.get(output as object) ?? new Map<string, CompiledStructuredOutput>();
  forOutput.set(key, compiled);
  compiledOutputs.set(output as object, forOutput);
  return compiled;
}

/** Compiled outputs by schema and policy: a run's `output` is compiled once, not once per run. */
const compiledOutputs = new WeakMap<object, Map<string, CompiledStructuredOutput>>();

function compileUncached(output: unknown, policy: StructuredOutputPolicy): CompiledStructuredOutput {
  const toolName = policy.toolName ?? DEFAULT_STRUCTURED_OUTPUT_POLICY.toolName;
  const description = policy.description ?? DEFAULT_STRUCTURED_OUTPUT_POLICY.description;
  const maxRepairs = policy.maxRepairs ?? DEFAULT_STRUCTURED_OUTPUT_POLICY.maxRepairs;
  if (!Number.isSafeInteger(maxRepairs) || maxRepairs < 0)
    throw new LlmAgentError(
      'invalid_run_options',
      `\`outputPolicy.maxRepairs\` must be a whole number >= 0, got ${String(maxRepairs)}`,
    );
  const mode: unknown = policy.mode ?? DEFAULT_STRUCTURED_OUTPUT_POLICY.mode;
  if (mode !== 'auto' && mode !== 'native' && mode !== 'tool')
    throw new LlmAgentError(
      'invalid_run_options',
      `\`outputPolicy.mode\` must be 'auto', 'native' or 'tool', got ${String(mode)}`,
    );
  let compiled: Omit<CompiledStructuredOutput, 'format'>;
  if (isStandardSchema(output)) compiled = fromStandardSchema(output, toolName, description, maxRepairs);
  else if (typeof output === 'function') compiled = fromClass(output, toolName, description, maxRepairs);
  else
    throw new LlmAgentError(
      'invalid_run_options',
      '`output` must be a class with @Field() properties or a Standard Schema',
    );
  const format: ModelResponseFormat = Object.freeze({
    type: 'json_schema',
    name: toolName,
    schema: compiled.tool.inputSchema,
    ...(policy.description === undefined ? {} : { description: policy.description }),
  });
  return mergeOwn(compiled, { format });
}

/** The decoded answer, with the nulls that stand for "absent" dropped when asked. */
function decodeAnswer(
  args: unknown,
  schema: JsonSchema,
  options: ParseOutputOptions | undefined,
): ReturnType<typeof decodeToolArguments> {
  const decoded = decodeToolArguments(args, DEFAULT_ARGUMENT_LIMITS);
  if (!decoded.ok || options?.nullsAreAbsent !== true) return decoded;
  return { ok: true, value: dropAbsentNulls(decoded.value, schema) };
}

function fromStandardSchema(
  schema: StandardSchemaV1,
  toolName: string,
  description: string,
  maxRepairs: number,
): Omit<CompiledStructuredOutput, 'format'> {
  const Answer = defineTool({ name: toolName, description, input: schema, invoke: (value) => value });
  const compiled = compileToolClass(Answer);
  return {
    tool: compiled.llmTool,
    maxRepairs,
    parse: async (args, options) => {
      const decoded = decodeAnswer(args, compiled.llmTool.inputSchema, options);
      if (!decoded.ok) return { ok: false, issues: formatIssues(decoded.issues) };
      const issues = compiled.validate(decoded.value);
      if (issues.length > 0) return { ok: false, issues: formatIssues(issues) };
      const result = await schema['~standard'].validate(decoded.value);
      if (result.issues !== undefined)
        return { ok: false, issues: result.issues.map((issue) => issue.message).join('; ') };
      return { ok: true, value: result.value };
    },
  };
}

function fromClass(
  target: Function,
  toolName: string,
  description: string,
  maxRepairs: number,
): Omit<CompiledStructuredOutput, 'format'> {
  const { schema, plans } = buildClassSchema(target);
  const inputSchema = Object.freeze(schema) as JsonSchema;
  const validate = definitionChecked(target, () => compileInputValidator(inputSchema));
  const fill = compileInstanceFiller(target, plans);
  return {
    tool: Object.freeze({ name: toolName, description, inputSchema }),
    maxRepairs,
    parse: (args, options) => {
      const decoded = decodeAnswer(args, inputSchema, options);
      if (!decoded.ok) return Promise.resolve({ ok: false, issues: formatIssues(decoded.issues) });
      const issues = validate(decoded.value);
      if (issues.length > 0) return Promise.resolve({ ok: false, issues: formatIssues(issues) });
      return Promise.resolve({ ok: true, value: fill(constructInstance(target), decoded.value) });
    },
  };
}
