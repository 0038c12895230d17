import type { CheckedToolOutcome, ToolFailureOutcome, ToolOutcome } from '../outcome/tool-outcome';
import type { JsonValue } from '../outcome/json-value';
import type { ClassType } from '../reflect/field-options';
import type { ToolCallResult } from '../runner/run-result';

/**
 * The name of a tool at type level: the literal type of its static `toolName` (a `defineTool`
 * tool has one; a decorated class declares `static readonly toolName = 'get_weather'`, which
 * wuwe checks against its `@Tool({ name })`), else `string`. On a union it gives the union of the
 * names: `ToolNameOf<typeof forecast | typeof greet>` is `'forecast' | 'greet'`.
 */
export type ToolNameOf<T> = T extends { readonly toolName: infer Name extends string } ? Name : string;

/**
 * The JSON data of an instance of an output class: its properties (methods left out), nested
 * classes and arrays alike, as plain JSON objects.
 */
export type ToolOutputData<T> = T extends string | number | boolean | null
  ? T
  : T extends readonly (infer Item)[]
    ? ToolOutputData<Item>[]
    : { [Key in keyof T as T[Key] extends (...args: never[]) => unknown ? never : Key]: ToolOutputData<T[Key]> };

/**
 * The outcome type of a tool: when it declares a static `outputSchema` class (the class given to
 * its contract's `outputSchema`; `defineTool` sets it from `contract.outputSchema`), a
 * {@link CheckedToolOutcome} whose `data` has that class's JSON shape; otherwise {@link ToolOutcome}.
 */
export type ToolOutcomeOf<T> = T extends { readonly outputSchema: ClassType<infer Output> }
  ? CheckedToolOutcome<Extract<ToolOutputData<Output>, JsonValue>>
  : ToolOutcome;

/**
 * The tools a bindable value stands for: the classes of a provider that lists them (`ReflectedToolProvider`), else the
 * value itself.
 */
export type ToolsOf<T> = T extends { readonly reflectedClasses: readonly (infer Tool)[] } ? Tool : T;

/** A call to one of the given tools, named and typed after it (distributes over a union of tools). */
export type TypedToolCallResult<T> = T extends unknown ? ToolCallResult<ToolNameOf<T>, ToolOutcomeOf<T>> : never;

/**
 * A call the model made to a name no bound tool has: always refused (`unknown_tool`), so its
 * outcome is a failure and its name any string.
 */
export type UnknownToolCallResult = ToolCallResult<string, ToolFailureOutcome>;

/**
 * The calls of a run over the given tools (classes, `defineTool` tools, providers, as a union).
 * When every tool has a name at type level, a call is one of {@link TypedToolCallResult} (its
 * `toolName` a literal, its outcome typed from the tool's output class) or an
 * {@link UnknownToolCallResult}, so comparing `toolName` to a bound name and checking `ok` narrows
 * `outcome.data` to that tool's output. When any tool's name is only a `string` (a provider that
 * does not list its classes, a decorated class without a static `toolName`), it is the untyped
 * {@link ToolCallResult}.
 */
export type ToolCallResultOf<Tools> =
  string extends ToolNameOf<ToolsOf<Tools>>
    ? ToolCallResult
    : TypedToolCallResult<ToolsOf<Tools>> | UnknownToolCallResult;
