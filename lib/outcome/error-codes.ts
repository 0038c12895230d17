/**
 * Semantic categories of tool failures. The runner's retry policy decides on categories, never on messages.
 *
 * - `validation`: the arguments or the output did not match the schema; never retried as an operational retry.
 * - `permission`: host policy, approval or a sandbox refused the call.
 * - `not_found`, `conflict`, `precondition`: the target state did not allow the call.
 * - `timeout`: the declared deadline or the heartbeat idle limit passed.
 * - `cancelled`: the run or the caller aborted.
 * - `rate_limited`, `unavailable`, `transient`: a dependency failed in a way worth retrying.
 * - `internal`: the tool threw or misbehaved.
 * - `unknown`: the outcome of an effect is not known (e.g. a crash before admission).
 */
export const TOOL_ERROR_CATEGORIES = [
  'validation',
  'permission',
  'not_found',
  'conflict',
  'precondition',
  'timeout',
  'cancelled',
  'rate_limited',
  'unavailable',
  'transient',
  'internal',
  'unknown',
] as const;

/** One of {@link TOOL_ERROR_CATEGORIES}. */
export type ToolErrorCategory = (typeof TOOL_ERROR_CATEGORIES)[number];

/**
 * Standard error codes of tool failures, with the category each one carries by default.
 * Tools may use their own codes too; these are the ones wuwe itself produces.
 */
export const STANDARD_TOOL_ERROR_CODES = {
  /** The model named a tool no provider offers. */
  unknown_tool: 'validation',
  /** The model called a tool that was not active in its step (`activeTools`, `prepareStep`); it was not run. */
  tool_not_active: 'validation',
  /**
   * The tool's provider declares it now under stricter rules than the run was given (an MCP server changed it
   * after the runner was built); the call was not sent.
   */
  tool_changed: 'precondition',
  /** The run's `budget` did not allow the call; it was not run and the run stopped (`budget_exhausted`). */
  budget_exhausted: 'permission',
  /**
   * A tool guardrail (`toolGuardrails`) rejected the call before dispatch (it was not run), or the outcome after it
   * (the model reads the guardrail's message instead).
   */
  guardrail_rejected: 'permission',
  /** A guardrail's tripwire stopped the run; the call was not run (or, after its outcome, its output was withheld). */
  guardrail_tripped: 'permission',
  /** The contract's `maxCalls` for this tool was reached in the run; the call was not run (the run goes on). */
  max_calls_reached: 'permission',
  /** The argument text was not JSON. */
  invalid_json: 'validation',
  /** The model's answer was cut at its token limit; its tool calls may carry cut arguments and were not run. */
  incomplete_tool_call: 'validation',
  /** The arguments did not match the input schema; `details.issues` lists each one by JSON Pointer. */
  invalid_arguments: 'validation',
  /** The contract needs a provider capability the provider does not declare for this tool. */
  capability_mismatch: 'internal',
  /** Host policy (`allowToolCall`) or a sandbox refused the call. */
  permission_denied: 'permission',
  /** The call waits for a stored approval decision (durable runs); the run is suspended. */
  approval_pending: 'permission',
  /** The approval handler denied the call, or none was configured. */
  approval_denied: 'permission',
  /** A required resource version was missing or stale. */
  precondition_failed: 'precondition',
  /** The declared deadline passed. */
  timeout: 'timeout',
  /** The heartbeat idle limit passed without a heartbeat. */
  heartbeat_timeout: 'timeout',
  /** The run or the caller aborted. */
  cancelled: 'cancelled',
  /** The tool threw or returned something that is not an outcome. */
  tool_error: 'internal',
  /** The output did not match the output schema under `strict` validation. */
  output_validation: 'validation',
  /**
   * The call is in caller-supplied history (the input of `complete()` / `stream()`, `createRun`,
   * `saveMessages`), not in a model response of the run: it is answered with this failure and never run.
   */
  not_executed: 'permission',
  /** A call started but its result was never admitted; it was not re-run. */
  outcome_unknown: 'unknown',
  /** The outcome could not be projected for the model after admission. */
  tool_output_projection_failed: 'internal',
  /** A resource was not found. */
  not_found: 'not_found',
  /** The call conflicts with the current state. */
  conflict: 'conflict',
  /** A dependency asked to slow down. */
  rate_limited: 'rate_limited',
  /** A dependency is unavailable. */
  unavailable: 'unavailable',
} as const satisfies Record<string, ToolErrorCategory>;

/** A code wuwe itself produces. */
export type StandardToolErrorCode = keyof typeof STANDARD_TOOL_ERROR_CODES;

/** Categories that are worth an operational retry unless a retry policy says otherwise. */
export const DEFAULT_RETRYABLE_CATEGORIES: readonly ToolErrorCategory[] = Object.freeze([
  'timeout',
  'rate_limited',
  'unavailable',
  'transient',
]);
