import { ModelStepper } from '../../model/model-stepper';
import { ModelResponseFormat } from '../../model/model-types';
import { FinalAnswerState } from './final-answer';
import { LlmAgentStopReason } from '../run-result';
import { LlmAgentError } from '../runner-error';
import { CompiledStructuredOutput, StructuredOutputMode } from './structured-output';
import { StructuredOutputError } from './structured-output-error';

/**
 * The response format of a run with `output` in native mode, or `undefined` for the final-answer tool:
 * `tool` never, `auto` when the model supports the format, `native` always.
 *
 * @throws {@link LlmAgentError} `invalid_run_options` for `native` on a model that does not support the format.
 */
export function nativeFormatOf(
  model: ModelStepper,
  compiled: CompiledStructuredOutput,
  mode: StructuredOutputMode = 'auto',
): ModelResponseFormat | undefined {
  if (mode === 'tool') return undefined;
  const supported = model.supportsResponseFormat?.(compiled.format) === true;
  if (supported) return compiled.format;
  if (mode === 'native')
    throw new LlmAgentError(
      'invalid_run_options',
      `\`outputPolicy.mode\` is 'native' but model '${model.modelName}' has no native structured output for this schema: use 'auto' or 'tool'`,
    );
  return undefined;
}

/** Stop reasons of a turn that ended with the model's final text: the turn that holds a native answer. */
const ANSWER_STOPS: ReadonlySet<LlmAgentStopReason> = new Set([
  'end_turn',
  'max_tokens',
  'stop_sequence',
  'refusal',
  'other',
]);

/** Whether the run's last turn, in native mode, is a final answer to judge (the model ended its turn with text). */
export function endedWithNativeAnswer(
  state: FinalAnswerState | undefined,
  stopReason: LlmAgentStopReason | undefined,
): boolean {
  return (
    state?.native !== undefined &&
    state.accepted === undefined &&
    stopReason !== undefined &&
    ANSWER_STOPS.has(stopReason)
  );
}

/**
 * Judges the final text of a native-mode run: JSON decoded and validated exactly as the final-answer
 * tool's arguments are (a `null` for an optional property that cannot be `null` is "absent", as OpenAI
 * strict mode sends it, on every client, so a resumed run reads a stored answer the same way). A valid
 * answer is accepted (`undefined` is returned); a bad one (empty, not JSON, invalid, a refusal, cut at
 * the token limit) counts one repair and returns the user message that names its issues.
 *
 * @throws {@link StructuredOutputError} `output_missing` (empty answers) or `output_invalid` when the repairs are used
 * up.
 */
export async function judgeNativeAnswer(
  state: FinalAnswerState,
  text: string,
  stopReason: LlmAgentStopReason,
): Promise<string | undefined> {
  const issues = await issuesOf(state, text, stopReason);
  if (issues === undefined) return undefined;
  state.repairs++;
  const empty = text.trim().length === 0;
  if (!empty) state.lastAnswer = text;
  state.lastIssues = issues;
  if (state.repairs > state.compiled.maxRepairs) {
    const code = empty && state.lastAnswer === undefined ? 'output_missing' : 'output_invalid';
    throw new StructuredOutputError(
      code,
      `no valid final answer after ${state.compiled.maxRepairs} repairs: ${issues}`,
      issues,
      state.lastAnswer,
    );
  }
  return `Your final answer was not accepted: ${issues}. Answer again with only the JSON value of your final answer, matching the '${state.compiled.format.name}' schema; call tools first if you need them.`;
}

/** What is wrong with the answer, or `undefined` when it was accepted (then `state.accepted` holds it). */
async function issuesOf(
  state: FinalAnswerState,
  text: string,
  stopReason: LlmAgentStopReason,
): Promise<string | undefined> {
  if (stopReason === 'refusal')
    return `the model refused to answer${text.trim().length > 0 ? ` ("${text.trim()}")` : ''}`;
  if (stopReason === 'max_tokens') return "the answer was cut at the model's token limit";
  if (text.trim().length === 0) return 'the answer was empty';
  const parsed = await state.compiled.parse(text, { nullsAreAbsent: true });
  if (!parsed.ok) return parsed.issues;
  state.accepted = { value: parsed.value };
  return undefined;
}
