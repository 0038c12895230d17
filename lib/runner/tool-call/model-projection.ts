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
import { RunInProgress } from '../run-state';
import { StepContext } from './step-context';

/** The `projectForModel` step as `LlmAgentRunner` defines it (documented there). */
export function projectForModel(
  steps: StepContext,
  run: RunInProgress,
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
function projectionPolicyOf(run: RunInProgress, descriptor: ToolDescriptor | undefined): ToolOutputProjectionPolicy {
  const runPolicy = run.options.toolOutputProjection ?? DEFAULT_TOOL_OUTPUT_PROJECTION;
  return descriptor?.modelOutputProjection === undefined
    ? runPolicy
    : effectiveToolOutputProjection(runPolicy, descriptor.modelOutputProjection);
}

/**
 * Before any model or tool call: every tool's effective projection policy must hold under the run's estimator
 * (`checkToolOutputProjectionPolicy`). The check measures four truncation envelopes with the estimator, several
 * microseconds a policy, so ceilings proven to hold under an estimator are remembered by value (`maxBytes:maxTokens`)
 * per estimator object: a runner built per request, or `invokeToolCall` (a run per call), checks each once.
 */
export function checkProjectionPolicies(run: RunInProgress, descriptors: Iterable<ToolDescriptor>): void {
  const estimator = run.options.contextTokenEstimator;
  const key = estimator ?? DEFAULT_TOOL_OUTPUT_PROJECTION;
  let proven = provenCeilings.get(key);
  if (proven === undefined) provenCeilings.set(key, (proven = new Set()));
  checkProjectionPolicy(projectionPolicyOf(run, undefined), estimator, proven);
  for (const descriptor of descriptors) checkProjectionPolicy(projectionPolicyOf(run, descriptor), estimator, proven);
}

/** One effective policy checked under the estimator, unless its ceilings were proven under it before. */
function checkProjectionPolicy(
  policy: ToolOutputProjectionPolicy,
  estimator: RunInProgress['options']['contextTokenEstimator'],
  proven: Set<string>,
): void {
  const ceilings = `${policy.maxBytes}:${policy.maxTokens}`;
  if (proven.has(ceilings)) return;
  checkToolOutputProjectionPolicy(policy, estimator);
  proven.add(ceilings);
}

/** Ceilings (`maxBytes:maxTokens`) proven to hold, per estimator (the default estimator under a sentinel key). */
const provenCeilings = new WeakMap<object, Set<string>>();
