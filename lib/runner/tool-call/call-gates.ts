import { mergeOwn } from '../../outcome/merge-own';
import { requiredCapabilities } from '../../contract/compile-descriptor';
import { NO_CAPABILITIES } from '../../contract/defaults';
import { ToolDescriptor } from '../../contract/tool-descriptor';
import { messageOf } from '../../errors/message-of';
import { ModelToolCall } from '../../model/model-types';
import { JsonObject } from '../../outcome/json-value';
import { standardFailure, toolFailure, ToolOutcome } from '../../outcome/tool-outcome';
import { ToolProvider, ToolProviderCapabilities } from '../../providers/tool-provider';
import { formatIssues } from '../../tools/tool-argument-error';
import { dropAbsentNulls } from '../../validation/absent-nulls';
import { DEFAULT_ARGUMENT_LIMITS } from '../../validation/argument-limits';
import { decodeToolArguments } from '../../validation/decode-arguments';
import { compileInputValidator } from '../../validation/schema-validator';
import { markValidated } from '../../validation/validated-arguments';
import { resolveJsonPointer } from '../../validation/validation-issue';
import { callHook, HookResult } from './call-hook';
import { isPromiseLike, MaybePromise } from '../maybe-promise';
import { LlmAgentRunOptions, ToolCallPermission, ToolCallRequest } from '../run-options';
import { RunInProgress } from '../run-state';
import { StepContext } from './step-context';

/**
 * What every gate of the per-call path answers: go on with a value, refuse the call with a failure
 * the model reads (nothing runs), or suspend it until a stored decision exists (approval).
 */
export type Gate<T> = { readonly kind: 'continue'; readonly value: T } | GateStop;

/** A gate's answer that stops the call: refused with a failure for the model, or suspended. */
export type GateStop = { readonly kind: 'refuse'; readonly outcome: ToolOutcome } | { readonly kind: 'suspend' };

/** The answer of a gate that lets the call through and has nothing to add. */
export const PASS: Gate<void> = Object.freeze({ kind: 'continue', value: undefined });

/** The answer of a gate that refuses the call with `outcome`. */
export function refuse(outcome: ToolOutcome): GateStop {
  return { kind: 'refuse', outcome };
}

/**
 * Whether a model call's `id` and `name` are well-formed UTF-16. An id with a lone surrogate is hashed (the
 * idempotency key) and stored as U+FFFD, so two different ids would name one call: `executeToolCall` refuses such a
 * call ({@link malformedCallRefusal}) before anything runs or is written for it.
 */
export function isWellFormedCall(call: ModelToolCall): boolean {
  return call.id.isWellFormed() && call.name.isWellFormed();
}

/** The refusal (`invalid_tool_call`, nothing runs) of a call that is not {@link isWellFormedCall}. */
export function malformedCallRefusal(call: ModelToolCall): GateStop {
  const field = call.id.isWellFormed() ? 'name' : 'id';
  return refuse(
    toolFailure({
      code: 'invalid_tool_call',
      category: 'validation',
      retryable: false,
      message: `the tool call's ${field} may not hold a lone surrogate; this call was not run`,
    }),
  );
}

/** The `resolveTool` step as `LlmAgentRunner` defines it (documented there). */
export function resolveToolGate(
  descriptors: ReadonlyMap<string, ToolDescriptor>,
  call: ModelToolCall,
): Gate<ToolDescriptor> {
  const descriptor = descriptors.get(call.name);
  if (descriptor !== undefined) return { kind: 'continue', value: descriptor };
  const known = [...descriptors.keys()].join(', ');
  return refuse(standardFailure('unknown_tool', `no tool named '${call.name}'; available tools: ${known}`));
}

/** The `validateArguments` step as `LlmAgentRunner` defines it (documented there). */
export function validateArgumentsGate(
  run: RunInProgress,
  call: ModelToolCall,
  descriptor: ToolDescriptor,
): Gate<JsonObject> {
  const raw = decodeToolArguments(call.arguments, run.options.argumentLimits ?? DEFAULT_ARGUMENT_LIMITS);
  // A client that made the model send every property marks its calls: there a `null` for an optional property means
  // absent.
  const decoded =
    raw.ok && call.nullsAreAbsent === true
      ? mergeOwn(raw, { value: dropAbsentNulls(raw.value, descriptor.inputSchema) })
      : raw;
  const issues = decoded.ok ? compileInputValidator(descriptor.inputSchema)(decoded.value) : decoded.issues;
  if (decoded.ok && issues.length === 0) {
    markValidated(decoded.value, descriptor.inputSchema);
    return { kind: 'continue', value: decoded.value };
  }
  return refuse(
    toolFailure({
      code: decoded.ok ? 'invalid_arguments' : decoded.code,
      category: 'validation',
      retryable: false,
      message: `Invalid arguments for tool '${call.name}': ${formatIssues(issues)}. Correct them and call again.`,
      details: {
        issues: issues.map((issue) => ({ pointer: issue.pointer, message: issue.message, keyword: issue.keyword })),
      },
    }),
  );
}

/**
 * The capabilities the provider declares for the tool. A provider whose `capabilities` throws
 * declares nothing it can be trusted with: the call is refused (`capability_mismatch`), fail closed.
 */
export function declaredCapabilitiesGate(
  steps: StepContext,
  run: RunInProgress,
  provider: ToolProvider,
  request: ToolCallRequest,
): Gate<ToolProviderCapabilities> {
  try {
    return { kind: 'continue', value: provider.capabilities?.(request.toolName) ?? NO_CAPABILITIES };
  } catch (error) {
    steps.hookFailed(run, request, 'capabilities', error);
    return refuse(
      standardFailure(
        'capability_mismatch',
        `the provider could not report its capabilities for '${request.toolName}' (${messageOf(error)}); the call was not run`,
      ),
    );
  }
}

/** The `checkCapabilities` step as `LlmAgentRunner` defines it (documented there). */
export function checkCapabilitiesGate(
  needed: readonly (keyof ToolProviderCapabilities)[],
  request: ToolCallRequest,
  declared: ToolProviderCapabilities,
): Gate<void> {
  if (needed.length === 0) return PASS;
  const missing = needed.filter((name) => !declared[name]);
  if (missing.length === 0) return PASS;
  return refuse(
    standardFailure(
      'capability_mismatch',
      `the contract of '${request.toolName}' needs provider capabilities it does not declare: ${missing.join(', ')}`,
    ),
  );
}

/** The `authorize` step as `LlmAgentRunner` defines it (documented there). */
export function authorizeGate(
  steps: StepContext,
  run: RunInProgress,
  request: ToolCallRequest,
): MaybePromise<Gate<void>> {
  const hook = run.options.allowToolCall;
  return hook === undefined ? PASS : askHostPolicy(steps, run, request, hook);
}

/** {@link authorizeGate} with a hook. */
function askHostPolicy(
  steps: StepContext,
  run: RunInProgress,
  request: ToolCallRequest,
  hook: NonNullable<LlmAgentRunOptions['allowToolCall']>,
): MaybePromise<Gate<void>> {
  const gateOf = (answer: HookResult<ToolCallPermission>): Gate<void> => {
    if (answer.kind === 'aborted')
      return refuse(standardFailure('cancelled', 'the run was aborted while host policy decided on the call'));
    if (answer.kind === 'failed') {
      steps.hookFailed(run, request, 'allowToolCall', answer.error);
      return refuse(
        standardFailure(
          'permission_denied',
          `host policy could not decide on the call to '${request.toolName}' (allowToolCall failed); it was refused`,
        ),
      );
    }
    const permission = answer.value;
    const allowed = typeof permission === 'boolean' ? permission : permission?.allowed === true;
    if (allowed) return PASS;
    const reason = typeof permission === 'object' && permission?.reason !== undefined ? `: ${permission.reason}` : '';
    return refuse(
      standardFailure('permission_denied', `host policy refused the call to '${request.toolName}'${reason}`),
    );
  };
  const answer = callHook(() => hook(request), run.options.signal);
  return isPromiseLike(answer) ? answer.then(gateOf) : gateOf(answer);
}

/** The `checkPrecondition` step as `LlmAgentRunner` defines it (documented there). */
export function checkPreconditionGate(request: ToolCallRequest): Gate<void> {
  const policy = request.descriptor.resourceVersion;
  if (!policy.requireExpectedVersion) return PASS;
  const version = resolveJsonPointer(request.arguments, policy.argumentPointer);
  if ((typeof version === 'string' && version !== '') || typeof version === 'number') return PASS;
  return refuse(
    standardFailure(
      'precondition_failed',
      `'${request.toolName}' requires an expected resource version at ${policy.argumentPointer}`,
    ),
  );
}

/** The names of the provider capabilities a contract needs, worked out once per tool. */
export function neededCapabilityNames(descriptor: ToolDescriptor): readonly (keyof ToolProviderCapabilities)[] {
  const capabilities = requiredCapabilities(descriptor);
  return Object.freeze(
    (Object.keys(capabilities) as (keyof ToolProviderCapabilities)[]).filter((name) => capabilities[name]),
  );
}
