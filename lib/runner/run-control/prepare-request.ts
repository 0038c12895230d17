import { mergeOwn } from '../../outcome/merge-own';
import type { ModelStepper } from '../../model/model-stepper';
import { messageOf } from '../../errors/message-of';
import type { ChatMessage, ModelRequest, ModelResponse } from '../../model/model-types';
import { fallbackTextTokenEstimator } from '../../projection/fallback-text-token-estimator';
import { isPromiseLike } from '../maybe-promise';
import type { RunInProgress } from '../run-state';
import { preparedMessagesProblem } from '../run-input';
import { withoutProviderContent } from '../turn-messages';
import { LlmAgentError } from '../runner-error';
import type { StepContext } from '../tool-call/step-context';
import type { BudgetKeyReservationResult } from '../../durable/budget/budget-keys';
import { BudgetStop } from './budget/budget-stop';
import {
  modelReservationId,
  releaseKeyModelRequest,
  reservationPrice,
  settleKeyModelRequest,
} from './budget/key-budget';
import { checkActiveTools, checkToolChoice, offeredTools } from './run-control';
import type { PreparedStep } from './tool-control';

/**
 * The model request of the run's next step under its run control: `prepareStep` asked (with the step number, the
 * run so far and the budget left), the tools narrowed to the active ones (the final-answer tool always stays),
 * the tool choice set, and the budget's reservation made, which caps the request's `maxOutputTokens`. Throws
 * {@link BudgetStop} when the budget does not allow the request (nothing is sent), `invalid_run_options` for a
 * `prepareStep` answer that cannot work. @internal
 */
export async function controlModelRequest(
  steps: StepContext,
  run: RunInProgress,
  model: ModelStepper,
  request: ModelRequest,
): Promise<ModelRequest> {
  const control = run.control;
  if (control === undefined) return request;
  const { options } = run;
  const prepared = options.prepareStep === undefined ? undefined : await askPrepareStep(run, request);
  const active =
    prepared?.activeTools === undefined
      ? checkActiveTools(options.activeTools, control.toolNames, 'activeTools')
      : checkActiveTools(prepared.activeTools, control.toolNames, 'prepareStep activeTools');
  control.activeTools = active;
  const offered = active === undefined ? undefined : offeredTools(active, control.finalAnswerTool);
  const tools = offered === undefined ? request.tools : request.tools.filter((tool) => offered.has(tool.name));
  const toolChoice = prepared?.toolChoice ?? options.toolChoice;
  if (toolChoice !== undefined)
    checkToolChoice(
      toolChoice,
      model,
      new Set(tools.map((tool) => tool.name)),
      prepared?.toolChoice === undefined ? 'toolChoice' : 'prepareStep toolChoice',
    );
  const controlled: ModelRequest = {
    ...request,
    tools,
    ...(prepared?.system === undefined ? {} : { system: prepared.system }),
    ...(prepared?.messages === undefined ? {} : { messages: prepared.messages.slice() }),
    ...(toolChoice === undefined ? {} : { toolChoice }),
  };
  return await reserveModelRequest(steps, run, controlled);
}

/**
 * Reserves the request against the run's budget, then its budget key (each caps `maxOutputTokens` to what it
 * leaves) and reports `budget_reserved`; throws {@link BudgetStop} when either refuses (nothing stays reserved).
 */
async function reserveModelRequest(
  steps: StepContext,
  run: RunInProgress,
  request: ModelRequest,
): Promise<ModelRequest> {
  const { ledger, keyBudget, price } = run.control ?? {};
  if (ledger === undefined && keyBudget === undefined) return request;
  const estimated = estimatedInputTokens(run, request);
  let outputTokens = request.maxOutputTokens;
  if (ledger !== undefined) {
    const reserved = ledger.reserveModelRequest(estimated, run.clock.now());
    if (typeof reserved === 'string') throw new BudgetStop(steps, run, { limit: reserved, at: 'model_request' });
    outputTokens = minimum(outputTokens, reserved.outputTokens);
  }
  if (keyBudget !== undefined) {
    const reservationId = modelReservationId(run);
    let answer: BudgetKeyReservationResult;
    try {
      answer = await keyBudget.store.reserveKeyBudget(keyBudget.key, {
        runId: run.runId,
        reservationId,
        kind: 'model_request',
        inputTokens: estimated,
        ...(outputTokens === undefined ? {} : { outputTokens }),
        ...(price === undefined ? {} : { price: reservationPrice(price) }),
      });
    } catch (error) {
      ledger?.cancelModelRequest();
      throw error;
    }
    keyBudget.state = answer.state;
    if (!answer.granted) {
      ledger?.cancelModelRequest();
      const tripped = { limit: answer.limit, key: keyBudget.key, max: answer.max, at: 'model_request' } as const;
      throw new BudgetStop(steps, run, tripped);
    }
    keyBudget.pending = reservationId;
    outputTokens = minimum(outputTokens, answer.outputTokens);
  }
  steps.emit(run, {
    type: 'budget_reserved',
    runId: run.runId,
    step: run.steps + 1,
    inputTokens: estimated,
    ...(outputTokens === undefined ? {} : { outputTokens }),
    ...(keyBudget === undefined ? {} : { budgetKey: keyBudget.key }),
  });
  return outputTokens === undefined ? request : mergeOwn(request, { maxOutputTokens: outputTokens });
}

function minimum(first: number | undefined, second: number | undefined): number | undefined {
  return first === undefined ? second : second === undefined ? first : Math.min(first, second);
}

/** Settles the budget's (and the budget key's) reservation to a response's real usage. @internal */
export async function settleModelRequest(run: RunInProgress, response: ModelResponse): Promise<void> {
  run.control?.ledger?.settleModelRequest(response.usage);
  const keyBudget = run.control?.keyBudget;
  if (keyBudget !== undefined) await settleKeyModelRequest(run, keyBudget, response);
}

/** Drops the reservation of a request that failed (the budget key's too). @internal */
export async function releaseModelRequest(run: RunInProgress): Promise<void> {
  run.control?.ledger?.releaseModelRequest();
  const keyBudget = run.control?.keyBudget;
  if (keyBudget !== undefined) await releaseKeyModelRequest(run, keyBudget);
}

/** What a `prepareStep` answer may set. */
const PREPARED_STEP_KEYS = [
  'activeTools',
  'toolChoice',
  'system',
  'messages',
] as const satisfies readonly (keyof PreparedStep)[];

async function askPrepareStep(run: RunInProgress, request: ModelRequest): Promise<PreparedStep | undefined> {
  const prepareStep = run.options.prepareStep;
  if (prepareStep === undefined) return undefined;
  const ledger = run.control?.ledger;
  let answer: PreparedStep | undefined | null | void;
  try {
    const answering = prepareStep({
      runId: run.runId,
      step: run.steps + 1,
      messages: request.messages,
      toolCalls: run.toolCalls,
      usage: run.usage,
      ...(ledger === undefined ? {} : { budget: ledger.remaining(run.clock.now()) }),
    });
    answer = isPromiseLike(answering) ? await answering : answering;
  } catch (error) {
    throw new LlmAgentError('run_hook_failed', `prepareStep threw: ${messageOf(error)}`, { cause: error });
  }
  if (answer === undefined || answer === null) return undefined;
  if (typeof answer !== 'object' || Array.isArray(answer))
    throw new LlmAgentError(
      'invalid_run_options',
      `prepareStep must answer an object or nothing, got ${messageOf(answer)}`,
    );
  answer = answerRead(answer);
  if (answer.system !== undefined && typeof answer.system !== 'string')
    throw new LlmAgentError('invalid_run_options', `prepareStep system must be text, got ${messageOf(answer.system)}`);
  const messages = answer.messages === undefined ? undefined : preparedMessages(answer.messages, request.messages);
  return messages === undefined ? answer : mergeOwn(answer, { messages });
}

/**
 * The messages a `prepareStep` answer sends instead of the run's: a well-formed conversation (each message, and how
 * they fit together, as `complete()` checks a caller's list) whose every tool call has its Tool message. Provider
 * content is kept only on the run's own messages handed back as they were: a host-made message cannot replay blocks.
 */
function preparedMessages(messages: unknown, own: readonly ChatMessage[]): ChatMessage[] {
  const problem = preparedMessagesProblem(messages);
  if (problem !== undefined)
    throw new LlmAgentError('invalid_run_options', `prepareStep messages: ${problem}; nothing was sent`);
  const ownMessages = new Set(own);
  return (messages as readonly ChatMessage[]).map((message) =>
    message.role === 'assistant' && message.providerContent !== undefined && !ownMessages.has(message)
      ? withoutProviderContent(message)
      : message,
  );
}

/** The input tokens of a request as the run's estimator sees its system prompt, messages and tools. */
function estimatedInputTokens(run: RunInProgress, request: ModelRequest): number {
  const estimator = run.options.contextTokenEstimator ?? fallbackTextTokenEstimator;
  const text = JSON.stringify({ system: request.system, messages: request.messages, tools: request.tools });
  const estimate = estimator.estimateTokens(text);
  return Number.isFinite(estimate) && estimate >= 0 ? Math.ceil(estimate) : 0;
}

/**
 * A copy of a `prepareStep` answer, its keys listed and each known one read once (the checks and the request then use
 * the copy): `invalid_run_options` for an unknown key, `run_hook_failed` when the answer cannot be read (a throwing
 * getter, a hostile proxy).
 */
function answerRead(answer: PreparedStep): PreparedStep {
  let keys: PropertyKey[];
  const copy: Record<string, unknown> = {};
  try {
    keys = Reflect.ownKeys(answer);
    for (const key of PREPARED_STEP_KEYS) {
      const value: unknown = answer[key];
      if (value !== undefined) copy[key] = value;
    }
  } catch (error) {
    throw new LlmAgentError('run_hook_failed', `prepareStep's answer could not be read: ${messageOf(error)}`, {
      cause: error,
    });
  }
  const unknown = keys.filter((key) => !(PREPARED_STEP_KEYS as readonly PropertyKey[]).includes(key));
  if (unknown.length > 0)
    throw new LlmAgentError(
      'invalid_run_options',
      `prepareStep answered unknown keys ${unknown.map((key) => JSON.stringify(String(key))).join(', ')} (known: ${PREPARED_STEP_KEYS.join(', ')})`,
    );
  return copy;
}
