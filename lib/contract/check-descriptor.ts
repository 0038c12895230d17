import { TOOL_ERROR_CATEGORIES } from '../outcome/error-codes';
import { LlmTool, TOOL_NAME_PATTERN } from './llm-tool';
import { ToolContractError } from './tool-contract-error';
import { ToolDescriptor, ToolOutputProjectionPolicy } from './tool-descriptor';

/** Smallest byte ceiling a projection policy may have. */
export const MIN_PROJECTION_BYTES = 256;
/**
 * Smallest token ceiling a projection policy may have: what the largest of the smallest truncation
 * envelopes (a failure with the longest standard code and ten-digit sizes) needs under the fallback
 * estimator, so that every legal policy passes `checkToolOutputProjectionPolicy` and can project
 * every outcome.
 */
export const MIN_PROJECTION_TOKENS = 128;

const SIDE_EFFECTS = ['none', 'read', 'write', 'destructive'];
const IDEMPOTENCY = ['non_idempotent', 'idempotent', 'idempotent_with_key'];
const APPROVAL = ['never', 'always', 'when_destructive'];
const OUTPUT_VALIDATION = ['strict', 'warning', 'disabled'];

/**
 * Rejects impossible contracts with a `ToolContractError` listing every problem: missing or
 * mistyped fields of a hand-written descriptor (each named; nothing inside them is read), unknown literals,
 * flags that are not booleans,
 * a timeout that is not a positive finite number, several attempts on a non-idempotent tool without
 * compensation, bad backoff numbers, projection ceilings below 256 bytes or 128 tokens, and (when the
 * run's policy is given) ceilings that would widen it.
 */
export function checkToolDescriptor(descriptor: ToolDescriptor, runProjection?: ToolOutputProjectionPolicy): void {
  const missing = shapeProblems(descriptor);
  if (missing.length > 0) throw new ToolContractError('invalid_contract', nameOf(descriptor), missing);
  const problems = [...contractProblems(descriptor), ...projectionProblems(descriptor, runProjection)];
  if (problems.length > 0) throw new ToolContractError('invalid_contract', descriptor.name, problems);
}

/** Every field a resolved descriptor has, with its type: what a hand-written one must spell out. */
const DESCRIPTOR_FIELDS: readonly (readonly [keyof ToolDescriptor, 'string' | 'number' | 'object'])[] = [
  ['name', 'string'],
  ['description', 'string'],
  ['version', 'string'],
  ['inputSchema', 'object'],
  ['sideEffect', 'string'],
  ['idempotency', 'string'],
  ['approval', 'string'],
  ['timeoutMs', 'number'],
  ['outputValidation', 'string'],
  ['retry', 'object'],
  ['resourceVersion', 'object'],
  ['compensation', 'object'],
  ['capabilities', 'object'],
  ['metadata', 'object'],
];

/** Missing or mistyped top-level fields (a hand-written descriptor), checked before anything reads inside them. */
function shapeProblems(descriptor: unknown): string[] {
  if (typeof descriptor !== 'object' || descriptor === null) return ['the descriptor must be an object'];
  const fields = descriptor as Record<string, unknown>;
  const problems: string[] = [];
  for (const [field, type] of DESCRIPTOR_FIELDS) {
    const value = fields[field];
    if (value === undefined) problems.push(`${field} is missing`);
    else if (
      type === 'object' ? typeof value !== 'object' || value === null || Array.isArray(value) : typeof value !== type
    )
      problems.push(`${field} must be ${type === 'object' ? 'an' : 'a'} ${type}`);
  }
  if (problems.length > 0)
    problems.push(
      'a hand-written descriptor needs every contract field: build it with descriptorFromLlmTool(tool, options) to get the defaults',
    );
  return problems;
}

function nameOf(descriptor: unknown): string {
  const name: unknown =
    typeof descriptor === 'object' && descriptor !== null ? (descriptor as { name?: unknown }).name : undefined;
  return typeof name === 'string' ? name : '(unnamed)';
}

function contractProblems(d: ToolDescriptor): string[] {
  const problems: string[] = [];
  if (!TOOL_NAME_PATTERN.test(d.name)) problems.push(`name must match ${TOOL_NAME_PATTERN.source}`);
  if (typeof d.version !== 'string' || d.version.length === 0) problems.push('version must be a non-empty string');
  if (!SIDE_EFFECTS.includes(d.sideEffect)) problems.push(`sideEffect must be one of ${SIDE_EFFECTS.join(', ')}`);
  if (!IDEMPOTENCY.includes(d.idempotency)) problems.push(`idempotency must be one of ${IDEMPOTENCY.join(', ')}`);
  if (!APPROVAL.includes(d.approval)) problems.push(`approval must be one of ${APPROVAL.join(', ')}`);
  if (!OUTPUT_VALIDATION.includes(d.outputValidation))
    problems.push(`outputValidation must be one of ${OUTPUT_VALIDATION.join(', ')}`);
  if (!isPositiveFinite(d.timeoutMs))
    problems.push(`timeoutMs must be a positive finite number, got ${String(d.timeoutMs)}`);
  const retry = d.retry;
  if (!Number.isSafeInteger(retry.maxAttempts) || retry.maxAttempts < 1)
    problems.push('retry.maxAttempts must be an integer >= 1');
  if (retry.maxAttempts > 1 && d.idempotency === 'non_idempotent' && !d.compensation.enabled)
    problems.push('retry.maxAttempts > 1 needs an idempotent tool or enabled compensation');
  if (!isNonNegativeFinite(retry.initialDelayMs)) problems.push('retry.initialDelayMs must be a finite number >= 0');
  if (!isNonNegativeFinite(retry.maxDelayMs)) problems.push('retry.maxDelayMs must be a finite number >= 0');
  if (!(Number.isFinite(retry.backoffCoefficient) && retry.backoffCoefficient >= 1))
    problems.push('retry.backoffCoefficient must be >= 1');
  if (!(Number.isFinite(retry.jitter) && retry.jitter >= 0 && retry.jitter <= 1))
    problems.push('retry.jitter must be within 0..1');
  if (!Array.isArray(retry.retryableCategories))
    problems.push('retry.retryableCategories must be an array of categories');
  else
    for (const category of retry.retryableCategories)
      if (!(TOOL_ERROR_CATEGORIES as readonly string[]).includes(category))
        problems.push(`retry.retryableCategories has unknown category '${category}'`);
  // A string such as 'false' is truthy: a flag that is not a boolean would switch a policy on.
  const flags: Array<[string, unknown]> = [
    ['compensation.enabled', d.compensation.enabled],
    ['resourceVersion.requireExpectedVersion', d.resourceVersion.requireExpectedVersion],
    ...Object.entries(d.capabilities).map(([name, value]): [string, unknown] => [`capabilities.${name}`, value]),
  ];
  for (const [name, value] of flags) if (typeof value !== 'boolean') problems.push(`${name} must be a boolean`);
  if (d.maxCalls !== undefined && !(Number.isSafeInteger(d.maxCalls) && d.maxCalls >= 1))
    problems.push(`maxCalls must be an integer >= 1, got ${String(d.maxCalls)}`);
  if (d.heartbeat !== undefined && !isPositiveFinite(d.heartbeat.idleTimeoutMs))
    problems.push('heartbeat.idleTimeoutMs must be a positive finite number');
  for (const pointer of [d.resourceVersion.argumentPointer, d.resourceVersion.outcomePointer])
    if (pointer !== '' && !pointer.startsWith('/'))
      problems.push(`resourceVersion pointer '${pointer}' must be a JSON Pointer`);
  if (typeof d.inputSchema !== 'object' || d.inputSchema === null || d.inputSchema.type !== 'object')
    problems.push('inputSchema must be a JSON Schema object with type "object"');
  return problems;
}

function projectionProblems(d: ToolDescriptor, run?: ToolOutputProjectionPolicy): string[] {
  const problems: string[] = [];
  const projection = d.modelOutputProjection;
  if (projection === undefined) return problems;
  if (projection.maxBytes !== undefined) {
    if (!Number.isSafeInteger(projection.maxBytes) || projection.maxBytes < MIN_PROJECTION_BYTES)
      problems.push(`modelOutputProjection.maxBytes must be an integer >= ${MIN_PROJECTION_BYTES}`);
    else if (run !== undefined && projection.maxBytes > run.maxBytes)
      problems.push(`modelOutputProjection.maxBytes ${projection.maxBytes} would widen the run's ${run.maxBytes}`);
  }
  if (projection.maxTokens !== undefined) {
    if (!Number.isSafeInteger(projection.maxTokens) || projection.maxTokens < MIN_PROJECTION_TOKENS)
      problems.push(`modelOutputProjection.maxTokens must be an integer >= ${MIN_PROJECTION_TOKENS}`);
    else if (run !== undefined && projection.maxTokens > run.maxTokens)
      problems.push(`modelOutputProjection.maxTokens ${projection.maxTokens} would widen the run's ${run.maxTokens}`);
  }
  return problems;
}

function isPositiveFinite(value: number): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value > 0;
}

function isNonNegativeFinite(value: number): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

/** The model-visible part of a descriptor. */
export function toLlmTool(descriptor: ToolDescriptor): LlmTool {
  return { name: descriptor.name, description: descriptor.description, inputSchema: descriptor.inputSchema };
}
