import { LlmAgentRunner, ScriptedModelClient } from '../../../lib';
import { z } from 'zod';
import { guardrail } from '../../../lib/runner';
import { FunctionProvider } from '../support';

const provider = (): FunctionProvider => new FunctionProvider().add('noop', () => 'ok');

const answerSchema = z.object({ city: z.string(), celsius: z.number() });

describe('outputGuardrails', () => {
  it('allow: the final answer stands', async () => {
    const seen: string[] = [];
    const model = new ScriptedModelClient([{ text: 'All good.' }]);
    const result = await new LlmAgentRunner(model, provider()).complete('Hi', {
      outputGuardrails: [({ text }) => (seen.push(text), guardrail.allow())],
    });
    expect(result.stopReason).toBe('end_turn');
    expect(seen).toEqual(['All good.']);
  });

  it('reject: the message goes back to the model and the run continues for another step', async () => {
    const model = new ScriptedModelClient([{ text: 'Call 555-0100.' }, { text: 'Please call the front desk.' }]);
    const result = await new LlmAgentRunner(model, provider()).complete('Contact?', {
      outputGuardrails: [
        ({ text }) =>
          /\d{3}-\d{4}/.test(text) ? guardrail.rejectContent('Do not share phone numbers.') : guardrail.allow(),
      ],
    });
    expect(result.stopReason).toBe('end_turn');
    expect(result.text).toBe('Please call the front desk.');
    expect(model.requests).toHaveLength(2);
    expect(model.requests[1].messages.at(-1)).toEqual({ role: 'user', content: 'Do not share phone numbers.' });
  });

  it('reject stays within maxSteps', async () => {
    const model = new ScriptedModelClient([{ text: 'bad' }, { text: 'bad again' }, { text: 'never asked' }]);
    const result = await new LlmAgentRunner(model, provider()).complete('Hi', {
      maxSteps: 2,
      outputGuardrails: [() => guardrail.rejectContent('try again')],
    });
    expect(result.stopReason).toBe('max_steps');
    expect(model.requests).toHaveLength(2);
  });

  it('tripwire: the run stops with guardrail_tripped after the answer', async () => {
    const model = new ScriptedModelClient([{ text: 'secret: 42' }, { text: 'never asked' }]);
    const result = await new LlmAgentRunner(model, provider()).complete('Hi', {
      outputGuardrails: [{ name: 'leak', check: () => guardrail.tripwire('leaked a secret') }],
    });
    expect(result.stopReason).toBe('guardrail_tripped');
    expect(model.requests).toHaveLength(1);
    expect(result.guardrail).toMatchObject({ kind: 'output', name: 'leak' });
  });

  it('with structured output: the guardrail sees the typed answer; a reject asks for a new one', async () => {
    const seen: number[] = [];
    const model = new ScriptedModelClient([
      { toolCalls: [{ name: 'final_answer', arguments: { city: 'Oslo', celsius: 99 } }] },
      { toolCalls: [{ name: 'final_answer', arguments: { city: 'Oslo', celsius: 9 } }] },
    ]);
    const result = await new LlmAgentRunner(model, provider()).complete('Weather in Oslo?', {
      output: answerSchema,
      // Typed with the run's `output`: `output.celsius` is a number here.
      outputGuardrails: [
        ({ output }) => {
          const celsius: number | undefined = output?.celsius;
          if (celsius !== undefined) seen.push(celsius);
          return celsius !== undefined && celsius > 60
            ? guardrail.rejectContent('Implausible temperature.')
            : guardrail.allow();
        },
      ],
    });
    expect(result.stopReason).toBe('end_turn');
    expect(result.output).toEqual({ city: 'Oslo', celsius: 9 });
    expect(seen).toEqual([99, 9]);
    expect(JSON.stringify(model.requests[1].messages)).toContain('Implausible temperature.');
  });
});

describe('guardrail options', () => {
  it.each([
    ['inputGuardrails not an array', { inputGuardrails: (() => guardrail.allow()) as never }],
    ['a guardrail without check', { inputGuardrails: [{ name: 'x' } as never] }],
    [
      'runInParallel on an output guardrail',
      { outputGuardrails: [{ check: () => guardrail.allow(), runInParallel: true } as never] },
    ],
    ['an unknown key of a tool guardrail', { toolGuardrails: { noop: { beforee: () => guardrail.allow() } as never } }],
  ])('%s is invalid_run_options before any request', async (_name, options) => {
    const model = new ScriptedModelClient([{ text: 'never' }]);
    await expect(new LlmAgentRunner(model, provider()).complete('Hi', options)).rejects.toMatchObject({
      code: 'invalid_run_options',
    });
    expect(model.requests).toHaveLength(0);
  });

  it('the run aborted while a tool guardrail is pending: the call is refused cancelled and never runs', async () => {
    const controller = new AbortController();
    const tools = new FunctionProvider().add('noop', () => 'ok');
    const model = new ScriptedModelClient([{ toolCalls: [{ name: 'noop', arguments: {} }] }, { text: 'never' }]);
    const result = await new LlmAgentRunner(model, tools).complete('Go', {
      signal: controller.signal,
      toolGuardrails: {
        noop: {
          before: () => {
            setTimeout(() => controller.abort(), 5);
            return new Promise(() => undefined);
          },
        },
      },
    });
    expect(tools.calls).toHaveLength(0);
    expect(result.stopReason).toBe('aborted');
    expect(result.toolCalls[0].outcome).toMatchObject({ ok: false, error: { code: 'cancelled' } });
  });
});
