import { ModelStepper } from '../../model/model-stepper';
import { LlmAgentRunOptions } from '../run-options';
import { LlmAgentError } from '../runner-error';
import { FinalAnswerState } from './final-answer';
import { nativeFormatOf } from './native-answer';
import { compileStructuredOutput } from './structured-output';

/**
 * The final-answer state of a run with `output` (the run's option, else the runner's default), or undefined
 * without one. `invalid_run_options` for an output that cannot work: one that does not compile, or whose
 * final-answer tool (not in native mode) would share its name with one of the runner's tools.
 * @internal
 */
export function finalAnswerStateOf(
  model: ModelStepper,
  options: LlmAgentRunOptions,
  defaults: LlmAgentRunOptions,
  hasTool: (name: string) => boolean,
): FinalAnswerState | undefined {
  const output = Object.hasOwn(options, 'output') ? options.output : defaults.output;
  if (output === undefined) return undefined;
  const outputPolicy = Object.hasOwn(options, 'outputPolicy') ? options.outputPolicy : defaults.outputPolicy;
  const compiled = compileStructuredOutput(output, outputPolicy);
  const native = nativeFormatOf(model, compiled, outputPolicy?.mode);
  if (native === undefined && hasTool(compiled.tool.name))
    throw new LlmAgentError(
      'invalid_run_options',
      `a tool is already named '${compiled.tool.name}': give the final-answer tool another name (\`outputPolicy.toolName\`)`,
    );
  return { compiled, repairs: 0, ...(native === undefined ? {} : { native }) };
}
