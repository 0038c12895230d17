import { Gate, RunInProgress } from '../../lib/runner';
import {
  JsonObject,
  LlmAgentError,
  LlmAgentRunner,
  ModelToolCall,
  ScriptedModelClient,
  standardFailure,
  ToolCallRequest,
  ToolDescriptor,
  ToolOutcome,
} from '../../lib';
import { SqliteRunStore } from '../../lib/durable/sqlite';
import { ToolProviderCapabilities } from '../../lib/tools';
import { makeTempDir } from '../durable/temp-dir';
import { FunctionProvider } from './support';

const temp = makeTempDir('gate-answers');
afterAll(() => temp.cleanup());

/** What an override written for the old shape answers: the refusal as a bare ToolOutcome, not a Gate. */
const OLD_SHAPE: ToolOutcome = standardFailure('permission_denied', 'refused by an override of the old shape');

type GateStep =
  'resolveTool' | 'validateArguments' | 'checkCapabilities' | 'authorize' | 'requestApproval' | 'checkPrecondition';

/**
 * A runner whose `step` answers `answer` (synchronously, or as a Promise where the step may be asynchronous) for the
 * tool `guarded`.
 */
function runnerAnswering(
  step: GateStep,
  answer: unknown,
  asynchronous: boolean,
  model: ScriptedModelClient,
  provider: FunctionProvider,
): LlmAgentRunner {
  const give = (request: { toolName: string } | ModelToolCall, fallback: () => unknown): any => {
    const name = 'toolName' in request ? request.toolName : request.name;
    if (name !== 'guarded') return fallback();
    return asynchronous ? Promise.resolve(answer) : answer;
  };
  class Overridden extends LlmAgentRunner {
    protected override resolveTool(run: RunInProgress, call: ModelToolCall): Gate<ToolDescriptor> {
      return step === 'resolveTool' ? give(call, () => super.resolveTool(run, call)) : super.resolveTool(run, call);
    }
    protected override validateArguments(
      run: RunInProgress,
      call: ModelToolCall,
      descriptor: ToolDescriptor,
    ): Gate<JsonObject> {
      return step === 'validateArguments'
        ? give(call, () => super.validateArguments(run, call, descriptor))
        : super.validateArguments(run, call, descriptor);
    }
    protected override checkCapabilities(
      run: RunInProgress,
      request: ToolCallRequest,
      declared: ToolProviderCapabilities,
    ): Gate<void> {
      return step === 'checkCapabilities'
        ? give(request, () => super.checkCapabilities(run, request, declared))
        : super.checkCapabilities(run, request, declared);
    }
    protected override authorize(run: RunInProgress, request: ToolCallRequest) {
      return step === 'authorize' ? give(request, () => super.authorize(run, request)) : super.authorize(run, request);
    }
    protected override requestApproval(run: RunInProgress, request: ToolCallRequest) {
      return step === 'requestApproval'
        ? give(request, () => super.requestApproval(run, request))
        : super.requestApproval(run, request);
    }
    protected override checkPrecondition(run: RunInProgress, request: ToolCallRequest): Gate<void> {
      return step === 'checkPrecondition'
        ? give(request, () => super.checkPrecondition(run, request))
        : super.checkPrecondition(run, request);
    }
  }
  return new Overridden(model, provider);
}

function tools(): FunctionProvider {
  return new FunctionProvider().add('guarded', () => 'ran').add('fine', () => 'fine ran');
}

/** One turn calling `fine` then `guarded`, then an answer. */
function twoCalls(): ScriptedModelClient {
  return new ScriptedModelClient([
    {
      toolCalls: [
        { id: 'a', name: 'fine' },
        { id: 'b', name: 'guarded' },
      ],
    },
    { text: 'done' },
  ]);
}

const CASES: ReadonlyArray<readonly [GateStep, boolean]> = [
  ['resolveTool', false],
  ['validateArguments', false],
  ['checkCapabilities', false],
  ['authorize', false],
  ['authorize', true],
  ['requestApproval', false],
  ['requestApproval', true],
  ['checkPrecondition', false],
];

async function failureOf(running: Promise<unknown>): Promise<LlmAgentError> {
  let caught: unknown;
  try {
    await running;
  } catch (error) {
    caught = error;
  }
  expect(LlmAgentError.isInstance(caught)).toBe(true);
  return caught as LlmAgentError;
}

describe('a gate step that answers something other than a Gate', () => {
  it.each(
    CASES.map(
      ([step, asynchronous]) => [`${step}${asynchronous ? ' (asynchronous)' : ''}`, step, asynchronous] as const,
    ),
  )(
    '%s answers a ToolOutcome: the run fails with invalid_step_answer naming the step, the call never runs',
    async (_name, step, asynchronous) => {
      const provider = tools();
      const error = await failureOf(
        runnerAnswering(step, OLD_SHAPE, asynchronous, twoCalls(), provider).complete('go'),
      );
      expect(error.code).toBe('invalid_step_answer');
      expect(error.message).toContain(`${step}()`);
      expect(error.message).toMatch(/not a Gate/);
      expect(provider.calls.map((call) => call.toolName)).toEqual(['fine']);
    },
  );

  it.each([
    ['undefined', undefined],
    ['null', null],
    ['a string', 'continue'],
    ['an unknown kind', { kind: 'allow' }],
    ['a refusal without outcome', { kind: 'refuse' }],
    ['a refusal with a success outcome', { kind: 'refuse', outcome: { ok: true, text: 'ran anyway' } }],
    ['a refusal with a failure missing its message', { kind: 'refuse', outcome: { ok: false, error: { code: 'x' } } }],
    ['a Promise from a step that must answer synchronously', Promise.resolve({ kind: 'continue', value: undefined })],
  ])('checkPrecondition answers %s: invalid_step_answer, nothing runs', async (_name, answer) => {
    const provider = tools();
    const error = await failureOf(
      runnerAnswering('checkPrecondition', answer, false, twoCalls(), provider).complete('go'),
    );
    expect(error.code).toBe('invalid_step_answer');
    expect(provider.calls.map((call) => call.toolName)).toEqual(['fine']);
  });

  it('validateArguments continues with a value that is not an arguments object: invalid_step_answer', async () => {
    const provider = tools();
    const error = await failureOf(
      runnerAnswering('validateArguments', { kind: 'continue', value: 'text' }, false, twoCalls(), provider).complete(
        'go',
      ),
    );
    expect(error).toMatchObject({ code: 'invalid_step_answer' });
    expect(error.message).toContain('validateArguments()');
    expect(provider.calls.map((call) => call.toolName)).toEqual(['fine']);
  });

  it('a refusal whose failure leaves out category and retryable is filled from the standard code table and refuses the call', async () => {
    const provider = tools();
    const refusal = { kind: 'refuse', outcome: { ok: false, error: { code: 'permission_denied', message: 'no' } } };
    const result = await runnerAnswering('checkPrecondition', refusal, false, twoCalls(), provider).complete('go');
    expect(result.toolCalls[1].outcome.error).toMatchObject({
      code: 'permission_denied',
      category: 'permission',
      retryable: false,
      message: 'no',
    });
    expect(provider.calls.map((call) => call.toolName)).toEqual(['fine']);
  });

  it('a durable run (SQLite) fails with the typed error and keeps the outcome of the call of the turn that was admitted', async () => {
    const store = new SqliteRunStore(`${temp.path}/gate-answers.db`);
    try {
      const provider = tools();
      const runner = runnerAnswering('checkPrecondition', OLD_SHAPE, false, twoCalls(), provider);
      const error = await failureOf(runner.complete('go', { store, runId: 'old-shape' }));
      expect(error.code).toBe('invalid_step_answer');
      const record = (await store.loadRun('old-shape'))!;
      expect(record.status).toBe('failed');
      expect(record.toolCalls.map((call) => [call.callId, call.status, call.outcome?.text])).toEqual([
        ['a', 'admitted', 'fine ran'],
      ]);
      expect(provider.calls.map((call) => call.toolName)).toEqual(['fine']);
    } finally {
      await store.close();
    }
  });
});
