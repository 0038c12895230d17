import { ChatMessage, ModelResponse, ModelToolCall } from '../../model/model-types';
import { ToolOutcome } from '../../outcome/tool-outcome';
import { ToolOutputProjectionReport } from '../../projection/tool-output-projection-result';
import { MaybePromise } from '../maybe-promise';
import { ToolCallRequest } from '../run-options';
import { LlmAgentRunResult, ToolCallResult } from '../run-result';
import { LlmAgentEvent, LlmAgentHookName } from '../runner-events';
import { RunInProgress } from '../run-state';
import { AdmittedCall, CompletedCall, DispatchedCall, ModelProjection } from './call-types';

/**
 * The steps of one runner as the module functions of `tool-call/`, `structured-output/`, `stream/` and `durable/`
 * call them: each through the runner's own method, so an override is the one called. Made once per runner; every
 * function takes the run it works on.
 */
export interface StepContext {
  /** The runner's `emit`. */
  readonly emit: (run: RunInProgress, event: LlmAgentEvent) => void;
  /** Reports a host hook that threw or rejected (`hook_failed`, through `emit`). */
  readonly hookFailed: (
    run: RunInProgress,
    call: { readonly callId: string; readonly turn: number; readonly toolName: string },
    hook: LlmAgentHookName,
    error: unknown,
  ) => void;
  /** The runner's `projectForModel`. */
  readonly projectForModel: (run: RunInProgress, call: ModelToolCall, outcome: ToolOutcome) => ModelProjection;
  /** The runner's `validateOutput`. */
  readonly validateOutput: (run: RunInProgress, request: ToolCallRequest, outcome: ToolOutcome) => ToolOutcome;
  /** The runner's `dispatchAttempt`. */
  readonly dispatchAttempt: (run: RunInProgress, call: AdmittedCall, attempt: number) => MaybePromise<ToolOutcome>;
  /** The runner's `retryAttempts`. */
  readonly retryAttempts: (
    run: RunInProgress,
    call: AdmittedCall,
    first: MaybePromise<ToolOutcome>,
  ) => Promise<DispatchedCall>;
  /** The runner's `compensate`. */
  readonly compensate: (
    run: RunInProgress,
    call: AdmittedCall,
    attempt: number,
    failure: ToolOutcome,
  ) => Promise<ToolOutcome>;
  /** The runner's `completeToolCall`. */
  readonly completeToolCall: (
    run: RunInProgress,
    call: ModelToolCall,
    result: CompletedCall,
  ) => MaybePromise<ToolCallResult>;
  /** The runner's `executeToolCall`. */
  readonly executeToolCall: (run: RunInProgress, call: ModelToolCall) => Promise<ToolCallResult>;
  /** The runner's `refuseToolCall`. */
  readonly refuseToolCall: (run: RunInProgress, call: ModelToolCall, outcome: ToolOutcome) => ToolCallResult;
  /** The runner's `runStep`. */
  readonly runStep: (run: RunInProgress) => Promise<void>;
  /** The runner's `requestModel`. */
  readonly requestModel: (run: RunInProgress) => Promise<ModelResponse>;
  /** The runner's `refuseIncompleteToolCalls`. */
  readonly refuseIncompleteToolCalls: (run: RunInProgress, calls: readonly ModelToolCall[]) => ToolCallResult[];
  /** The runner's `recordMessage`. */
  readonly recordMessage: (
    run: RunInProgress,
    message: ChatMessage,
    projection?: ToolOutputProjectionReport,
  ) => Promise<void>;
  /** The runner's `finishRun`. */
  readonly finishRun: (run: RunInProgress) => LlmAgentRunResult;
}
