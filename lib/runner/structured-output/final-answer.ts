import { ModelResponseFormat, ModelToolCall } from '../../model/model-types';
import { toolFailure, toolText, ToolOutcome } from '../../outcome/tool-outcome';
import { CompiledStructuredOutput } from './structured-output';
import { StructuredOutputError } from './structured-output-error';
import { ToolCallResult } from '../run-result';

/** The structured-output state of one run. */
export interface FinalAnswerState {
  readonly compiled: CompiledStructuredOutput;
  /** Bad answers sent back for repair so far. */
  repairs: number;
  /** The valid answer, once given. */
  accepted?: { readonly value: unknown };
  lastAnswer?: unknown;
  lastIssues?: string;
  /** Set in native mode: the response format every request carries; there is no final-answer tool. */
  native?: ModelResponseFormat;
}

/**
 * Judges the final-answer calls of one turn: the first one, when it came alone, is parsed against
 * the output schema (valid: accepted, the run ends); one given beside other tool calls, or a second
 * one, is refused. Each turn with a bad answer counts as one repair; one more than `maxRepairs`
 * throws.
 *
 * @throws {@link StructuredOutputError} `output_invalid` when the repairs are used up.
 */
export async function judgeFinalAnswers(
  state: FinalAnswerState,
  calls: readonly ModelToolCall[],
  alone: boolean,
): Promise<Map<ModelToolCall, ToolOutcome>> {
  const name = state.compiled.tool.name;
  const outcomes = new Map<ModelToolCall, ToolOutcome>();
  const [first, ...rest] = calls;
  for (const call of rest) outcomes.set(call, refusal(`give one final answer: this turn already called '${name}'`));
  if (!alone) {
    outcomes.set(
      first,
      refusal(
        `'${name}' was called beside other tool calls, so it was not taken: finish your other tool calls, then call '${name}' alone`,
      ),
    );
    return countRepair(state, first.arguments, 'the final answer was given beside other tool calls', outcomes);
  }
  const parsed = await state.compiled.parse(first.arguments, { nullsAreAbsent: first.nullsAreAbsent === true });
  if (parsed.ok) {
    state.accepted = { value: parsed.value };
    outcomes.set(first, toolText('Final answer accepted.'));
    return outcomes;
  }
  outcomes.set(
    first,
    toolFailure({
      code: 'invalid_arguments',
      category: 'validation',
      retryable: true,
      message: `the final answer does not match its schema: ${parsed.issues}; call '${name}' again with a corrected answer`,
    }),
  );
  return countRepair(state, first.arguments, parsed.issues, outcomes);
}

/**
 * Runs one turn of a run with `output` that has final-answer calls: those are judged (never
 * dispatched) and turned into results by `finalResult`; the other calls go to `executeOthers` (the
 * pipeline, every policy). The results come back in the order of the calls.
 */
export async function executeWithFinalAnswers(
  state: FinalAnswerState,
  calls: readonly ModelToolCall[],
  steps: {
    readonly executeOthers: (calls: readonly ModelToolCall[]) => Promise<ToolCallResult[]>;
    readonly finalResult: (call: ModelToolCall, outcome: ToolOutcome) => ToolCallResult;
  },
): Promise<ToolCallResult[]> {
  const name = state.compiled.tool.name;
  const finals = calls.filter((call) => call.name === name);
  const others = calls.filter((call) => call.name !== name);
  const outcomes = await judgeFinalAnswers(state, finals, others.length === 0);
  const results = new Map<ModelToolCall, ToolCallResult>();
  if (others.length > 0)
    (await steps.executeOthers(others)).forEach((result, index) => results.set(others[index], result));
  for (const call of finals) results.set(call, steps.finalResult(call, outcomes.get(call)!));
  return calls.map((call) => results.get(call)!);
}

/**
 * The model ended its turn without the final-answer tool: counts a repair and returns the message
 * that asks for it.
 *
 * @throws {@link StructuredOutputError} `output_missing` when the repairs are used up.
 */
export function askForFinalAnswer(state: FinalAnswerState): string {
  state.repairs++;
  const name = state.compiled.tool.name;
  if (state.repairs > state.compiled.maxRepairs)
    throw new StructuredOutputError(
      'output_missing',
      `the model ended its turn without calling '${name}' after ${state.compiled.maxRepairs} repairs`,
      'no final answer was given',
      state.lastAnswer,
    );
  return `Give your final answer now by calling the '${name}' tool; its arguments are the answer.`;
}

function countRepair(
  state: FinalAnswerState,
  answer: unknown,
  issues: string,
  outcomes: Map<ModelToolCall, ToolOutcome>,
): Map<ModelToolCall, ToolOutcome> {
  state.repairs++;
  state.lastAnswer = answer;
  state.lastIssues = issues;
  if (state.repairs > state.compiled.maxRepairs)
    throw new StructuredOutputError(
      'output_invalid',
      `no valid final answer after ${state.compiled.maxRepairs} repairs: ${issues}`,
      issues,
      answer,
    );
  return outcomes;
}

function refusal(message: string): ToolOutcome {
  return toolFailure({ code: 'invalid_arguments', category: 'validation', retryable: true, message });
}
