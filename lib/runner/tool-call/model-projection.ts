import { ToolDescriptor, ToolOutputProjectionPolicy } from '../../contract/tool-descriptor';
import { ModelToolCall } from '../../model/model-types';
import { renderToolMessage } from '../../outcome/render-tool-message';
import { standardFailure, ToolOutcome } from '../../outcome/tool-outcome';
import { checkToolOutputProjectionPolicy } from '../../projection/check-tool-output-projection-policy';
import { DEFAULT_TOOL_OUTPUT_PROJECTION } from '../../projection/default-tool-output-projection';
import { effectiveToolOutputProjection } from '../../projection/effective-tool-output-projection';
import { isProjectionFailure, projectWithin } from '../../projection/project-tool-output-for-model';
import { projectToolImages, ToolImageProjectionReport } from '../../projection/project-tool-images';
import { ToolOutputProjectionReport } from '../../projection/tool-output-projection-result';
import { DEFAULT_TOOL_IMAGE_POLICY } from '../../projection/tool-image-policy';
import { ModelProjection } from './call-types';
import { isPromiseLike } from '../maybe-promise';
import { RunState } from '../run-state';
import { StepContext } from './step-context';

/** The `projectForModel` step as `LlmAgentRunner` defines it (documented there). */
export function projectForModel(
  steps: StepContext,
  run: RunState,
  descriptor: ToolDescriptor | undefined,
  call: ModelToolCall,
  outcome: ToolOutcome,
): ModelProjection {
  const { options } = run;
  const text = projectWithin(outcome, projectionPolicyOf(run, descriptor), options.contextTokenEstimator);
  if (isProjectionFailure(text)) {
    const failure = standardFailure(
      'tool_output_projection_failed',
      `the output of '${call.name}' could not be projected for the model (${text.kind})`,
    );
    return { content: renderToolMessage(failure) };
  }
  // Most outcomes have no images: no image projection, and the text's projection as it is.
  const images =
    outcome.images === undefined
      ? undefined
      : projectToolImages(outcome, options.toolImages ?? DEFAULT_TOOL_IMAGE_POLICY);
  const report = images === undefined ? text.report : withImages(text.report, images.report);
  const observe = options.onToolOutputProjection;
  if (observe !== undefined) {
    const target = { callId: call.id, turn: run.turn, toolName: call.name };
    try {
      const observed: unknown = observe(report, target);
      if (isPromiseLike(observed))
        observed.then(undefined, (error: unknown) => steps.hookFailed(run, target, 'onToolOutputProjection', error));
    } catch (error) {
      steps.hookFailed(run, target, 'onToolOutputProjection', error);
    }
  }
  if (report.truncated)
    steps.emit(run, {
      type: 'tool_output_truncated',
      runId: run.runId,
      callId: call.id,
      turn: run.turn,
      toolName: call.name,
      report,
    });
  return images === undefined ? text : { content: text.content, report, parts: images.parts };
}

/** A text report with what became of the outcome's images. */
function withImages(report: ToolOutputProjectionReport, images: ToolImageProjectionReport): ToolOutputProjectionReport {
  return Object.assign({}, report, { images });
}

/** The effective projection policy of a tool: the run's, tightened by the tool's contract. */
function projectionPolicyOf(run: RunState, descriptor: ToolDescriptor | undefined): ToolOutputProjectionPolicy {
  const runPolicy = run.options.toolOutputProjection ?? DEFAULT_TOOL_OUTPUT_PROJECTION;
  if (runPolicy === last.runPolicy && descriptor === last.descriptor) return last.policy;
  const policy = cachedPolicyOf(runPolicy, descriptor);
  last.runPolicy = runPolicy;
  last.descriptor = descriptor;
  last.policy = policy;
  return policy;
}

/**
 * The last policy looked up, with its keys: consecutive calls of one tool under one run policy skip
 * both `WeakMap` lookups. Holds one run policy and one descriptor alive until the next lookup.
 */
const last: {
  runPolicy: object | undefined;
  descriptor: ToolDescriptor | undefined;
  policy: ToolOutputProjectionPolicy;
} = {
  runPolicy: undefined,
  descriptor: undefined,
  policy: DEFAULT_TOOL_OUTPUT_PROJECTION,
};

/** {@link projectionPolicyOf} through {@link effectivePolicies}. */
function cachedPolicyOf(
  runPolicy: ToolOutputProjectionPolicy,
  descriptor: ToolDescriptor | undefined,
): ToolOutputProjectionPolicy {
  let perDescriptor = effectivePolicies.get(runPolicy);
  if (perDescriptor === undefined) effectivePolicies.set(runPolicy, (perDescriptor = new WeakMap()));
  const key = descriptor ?? runPolicy;
  let policy = perDescriptor.get(key);
  if (policy === undefined)
    perDescriptor.set(key, (policy = effectiveToolOutputProjection(runPolicy, descriptor?.modelOutputProjection)));
  return policy;
}

/**
 * Before any model or tool call: every tool's effective projection policy must hold under the run's estimator.
 * An effective policy is a frozen object made once per run policy and descriptor, so one proven to hold is
 * known by its identity the next time, whichever runner asks (a runner built per request asks once).
 */
export function checkProjectionPolicies(run: RunState, descriptors: Iterable<ToolDescriptor>): void {
  const estimator = run.options.contextTokenEstimator;
  const cacheKey = estimator ?? DEFAULT_TOOL_OUTPUT_PROJECTION;
  let checked = checkedProjectionPolicies.get(cacheKey);
  if (checked === undefined)
    checkedProjectionPolicies.set(cacheKey, (checked = { policies: new WeakSet(), ceilings: new Set() }));
  checkProjectionPolicy(projectionPolicyOf(run, undefined), estimator, checked);
  for (const descriptor of descriptors) checkProjectionPolicy(projectionPolicyOf(run, descriptor), estimator, checked);
}

/** One effective policy checked under the estimator, unless it (or one with the same ceilings) was proven before. */
function checkProjectionPolicy(
  policy: ToolOutputProjectionPolicy,
  estimator: RunState['options']['contextTokenEstimator'],
  checked: CheckedPolicies,
): void {
  if (checked.policies.has(policy)) return;
  const ceilings = `${policy.maxBytes}:${policy.maxTokens}`;
  if (!checked.ceilings.has(ceilings)) {
    checkToolOutputProjectionPolicy(policy, estimator);
    checked.ceilings.add(ceilings);
  }
  if (Object.isFrozen(policy)) checked.policies.add(policy);
}

/** The policies proven to hold under one estimator: by identity (frozen ones) and by their ceilings. */
interface CheckedPolicies {
  readonly policies: WeakSet<ToolOutputProjectionPolicy>;
  readonly ceilings: Set<string>;
}

/** Effective projection policies, per run policy object and descriptor (both immutable). */
const effectivePolicies = new WeakMap<object, WeakMap<object, ToolOutputProjectionPolicy>>();

/** Policies already proven to hold, per estimator (the default estimator under a sentinel key). */
const checkedProjectionPolicies = new WeakMap<object, CheckedPolicies>();
