import { AdmittedCall, CompletedCall, DispatchedCall, Gate, ModelProjection, RunInProgress } from '../../lib/runner';
import {
  ChatMessage,
  JsonObject,
  LlmAgentRunner,
  LlmAgentRunResult,
  ModelResponse,
  ModelToolCall,
  ScriptedModelClient,
  standardFailure,
  ToolCallRequest,
  ToolCallResult,
  ToolDescriptor,
  ToolOutcome,
  toolText,
} from '../../lib';
import { ToolProviderCapabilities } from '../../lib/tools';
import { FunctionProvider } from './support';

/**
 * Every documented protected step of ToolCallPipeline and LlmAgentRunner, overridden once, with the steps that call it.
 */

const model = () => new ScriptedModelClient([{ text: 'unused' }]);
const call = (name: string, args: JsonObject = {}, id = 'c1'): ModelToolCall => ({ id, name, arguments: args });
const echo = () =>
  new FunctionProvider().add(
    'echo',
    (invocation) => `echo ${JSON.stringify(invocation.arguments)}`,
    {},
    { text: { type: 'string' } },
  );

describe('ToolCallPipeline gates', () => {
  it('resolveTool: an override refuses a known tool and the call never runs', async () => {
    class Hidden extends LlmAgentRunner {
      protected override resolveTool(run: RunInProgress, toolCall: ModelToolCall): Gate<ToolDescriptor> {
        if (toolCall.name === 'echo')
          return { kind: 'refuse', outcome: standardFailure('unknown_tool', 'echo is hidden here') };
        return super.resolveTool(run, toolCall);
      }
    }
    const provider = echo();
    const result = await new Hidden(model(), provider).invokeToolCall(call('echo', { text: 'hi' }));
    expect(result.outcome.error?.message).toBe('echo is hidden here');
    expect(provider.calls).toHaveLength(0);
  });

  it('validateArguments: the arguments an override returns are what every later step and the tool see', async () => {
    const seen: JsonObject[] = [];
    class Defaulting extends LlmAgentRunner {
      protected override validateArguments(
        run: RunInProgress,
        toolCall: ModelToolCall,
        descriptor: ToolDescriptor,
      ): Gate<JsonObject> {
        const raw = toolCall.arguments as JsonObject;
        return raw.text === undefined
          ? { kind: 'continue', value: { ...raw, text: 'defaulted' } }
          : super.validateArguments(run, toolCall, descriptor);
      }
    }
    const provider = echo();
    const result = await new Defaulting(model(), provider).invokeToolCall(call('echo'), {
      allowToolCall: (request) => (seen.push(request.arguments), true),
    });
    expect(seen).toEqual([{ text: 'defaulted' }]);
    expect(provider.calls[0].arguments).toEqual({ text: 'defaulted' });
    expect(result.arguments).toEqual({ text: 'defaulted' });
  });

  it('checkCapabilities: an override can let through a contract the provider does not declare capabilities for', async () => {
    const provider = new FunctionProvider().add('beat', () => 'ok', { heartbeat: { idleTimeoutMs: 1000 } });
    const plain = await new LlmAgentRunner(model(), provider).invokeToolCall(call('beat'));
    expect(plain.outcome.error?.code).toBe('capability_mismatch');
    class Trusting extends LlmAgentRunner {
      protected override checkCapabilities(
        _run: RunInProgress,
        _request: ToolCallRequest,
        _declared: ToolProviderCapabilities,
      ): Gate<void> {
        return { kind: 'continue', value: undefined };
      }
    }
    const trusted = await new Trusting(model(), provider).invokeToolCall(call('beat'));
    expect(trusted.outcome).toEqual({ ok: true, text: 'ok' });
  });

  it('authorize: an asynchronous override refuses, and approval is never asked', async () => {
    const approvals: string[] = [];
    class Strict extends LlmAgentRunner {
      protected override async authorize(_run: RunInProgress, request: ToolCallRequest): Promise<Gate<void>> {
        await Promise.resolve();
        return { kind: 'refuse', outcome: standardFailure('permission_denied', `no ${request.toolName} today`) };
      }
    }
    const provider = new FunctionProvider().add('drop', () => 'dropped', { sideEffect: 'destructive' });
    const result = await new Strict(model(), provider).invokeToolCall(call('drop'), {
      approvalHandler: (request) => (approvals.push(request.toolName), { approved: true }),
    });
    expect(result.outcome.error).toMatchObject({ code: 'permission_denied', message: 'no drop today' });
    expect(approvals).toEqual([]);
    expect(provider.calls).toHaveLength(0);
  });

  it('requestApproval: an override approves a destructive call that has no handler', async () => {
    class AutoApprove extends LlmAgentRunner {
      protected override requestApproval(): Gate<void> {
        return { kind: 'continue', value: undefined };
      }
    }
    const provider = new FunctionProvider().add('drop', () => 'dropped', { sideEffect: 'destructive' });
    expect((await new LlmAgentRunner(model(), provider).invokeToolCall(call('drop'))).outcome.error?.code).toBe(
      'approval_denied',
    );
    expect((await new AutoApprove(model(), provider).invokeToolCall(call('drop'))).outcome).toEqual({
      ok: true,
      text: 'dropped',
    });
  });

  it('requestApproval: an override that suspends suspends the run', async () => {
    class Suspending extends LlmAgentRunner {
      protected override requestApproval(): Gate<void> {
        return { kind: 'suspend' };
      }
    }
    const provider = echo();
    const scripted = new ScriptedModelClient([{ toolCalls: [{ id: 'c1', name: 'echo', arguments: { text: 'x' } }] }]);
    const result = await new Suspending(scripted, provider).complete('go');
    expect(result.stopReason).toBe('awaiting_approval');
    expect(result.toolCalls[0].awaitingApproval).toBe(true);
    expect(provider.calls).toHaveLength(0);
  });

  it('checkPrecondition: an override refuses after approval, before dispatch', async () => {
    class Versioned extends LlmAgentRunner {
      protected override checkPrecondition(_run: RunInProgress, request: ToolCallRequest): Gate<void> {
        return request.arguments.text === 'v2'
          ? { kind: 'continue', value: undefined }
          : { kind: 'refuse', outcome: standardFailure('precondition_failed', 'stale') };
      }
    }
    const provider = echo();
    const runner = new Versioned(model(), provider);
    expect((await runner.invokeToolCall(call('echo', { text: 'v1' }))).outcome.error).toMatchObject({
      code: 'precondition_failed',
      message: 'stale',
    });
    expect((await runner.invokeToolCall(call('echo', { text: 'v2' }))).outcome.ok).toBe(true);
    expect(provider.calls).toHaveLength(1);
  });
});

describe('ToolCallPipeline dispatch', () => {
  const flakyRetry = {
    idempotency: 'idempotent' as const,
    retry: { maxAttempts: 3, initialDelayMs: 1, maxDelayMs: 1, jitter: 0 },
  };

  it('dispatchWithRetries: an override answers instead of the provider, and finishOutcome still runs on its outcome', async () => {
    class Cached extends LlmAgentRunner {
      protected override dispatchWithRetries(): DispatchedCall {
        return { outcome: toolText('from cache'), attempts: 7 };
      }
    }
    const provider = echo();
    const result = await new Cached(model(), provider).invokeToolCall(call('echo', { text: 'x' }), {
      prepareToolResult: (outcome) => ({ ...outcome, text: `${outcome.text}!` }),
    });
    expect(result.outcome).toEqual({ ok: true, text: 'from cache!' });
    expect(result.attempts).toBe(7);
    expect(provider.calls).toHaveLength(0);
  });

  it('dispatchAttempt: an override is what the first attempt and every retry run', async () => {
    const attempts: number[] = [];
    class Flaky extends LlmAgentRunner {
      protected override dispatchAttempt(
        run: RunInProgress,
        admitted: AdmittedCall,
        attempt: number,
      ): Promise<ToolOutcome> {
        attempts.push(attempt);
        if (attempt < 3) return Promise.resolve(standardFailure('unavailable', `attempt ${attempt} failed`));
        return Promise.resolve(super.dispatchAttempt(run, admitted, attempt));
      }
    }
    const provider = new FunctionProvider().add('get', () => 'got', flakyRetry);
    const result = await new Flaky(model(), provider).invokeToolCall(call('get'), { random: () => 0 });
    expect(attempts).toEqual([1, 2, 3]);
    expect(result).toMatchObject({ outcome: { ok: true, text: 'got' }, attempts: 3 });
    expect(provider.calls.map((invocation) => invocation.attempt)).toEqual([3]);
  });

  it('retryAttempts: dispatchWithRetries hands a failed first attempt to the override', async () => {
    const firsts: ToolOutcome[] = [];
    class NoRetry extends LlmAgentRunner {
      protected override async retryAttempts(
        _run: RunInProgress,
        _call: AdmittedCall,
        first: ToolOutcome | Promise<ToolOutcome>,
      ): Promise<DispatchedCall> {
        firsts.push(await first);
        return { outcome: toolText('gave up politely'), attempts: 1 };
      }
    }
    const provider = new FunctionProvider().add('get', () => standardFailure('unavailable', 'down'), flakyRetry);
    const result = await new NoRetry(model(), provider).invokeToolCall(call('get'));
    expect(firsts.map((outcome) => outcome.error?.code)).toEqual(['unavailable']);
    expect(result).toMatchObject({ outcome: { ok: true, text: 'gave up politely' }, attempts: 1 });
    expect(provider.calls).toHaveLength(1);
  });

  it('compensate: the retry loop uses the override, not the provider', async () => {
    const undone: number[] = [];
    class OwnUndo extends LlmAgentRunner {
      protected override async compensate(
        _run: RunInProgress,
        _call: AdmittedCall,
        attempt: number,
        failure: ToolOutcome,
      ): Promise<ToolOutcome> {
        undone.push(attempt);
        return { ...failure, compensation: 'completed' };
      }
    }
    let count = 0;
    const provider = new FunctionProvider({ compensation: true }).add(
      'charge',
      () =>
        ++count === 1
          ? { ...standardFailure('unavailable', 'half done'), compensation: 'required' as const }
          : 'charged',
      { compensation: { enabled: true }, retry: { maxAttempts: 2, initialDelayMs: 1, maxDelayMs: 1, jitter: 0 } },
    );
    const result = await new OwnUndo(model(), provider).invokeToolCall(call('charge'));
    expect(undone).toEqual([1]);
    expect(provider.compensations).toHaveLength(0);
    expect(result).toMatchObject({ outcome: { ok: true, text: 'charged' }, attempts: 2 });
  });
});

describe('ToolCallPipeline completion and projection', () => {
  it('finishOutcome: an override changes the outcome the host and the model get', async () => {
    const observed: ToolOutcome[] = [];
    class Stamped extends LlmAgentRunner {
      protected override finishOutcome(run: RunInProgress, request: ToolCallRequest, outcome: ToolOutcome) {
        return { ...outcome, text: `[stamped] ${outcome.text}` };
      }
    }
    const result = await new Stamped(model(), echo()).invokeToolCall(call('echo', { text: 'a' }), {
      onToolResult: (outcome) => void observed.push(outcome),
    });
    expect(result.outcome.text).toBe('[stamped] echo {"text":"a"}');
    expect(observed[0]).toBe(result.outcome);
    expect(result.content).toBe('[stamped] echo {"text":"a"}');
  });

  it('validateOutput: the default finishOutcome calls the override', async () => {
    class NoEmpty extends LlmAgentRunner {
      protected override validateOutput(
        run: RunInProgress,
        request: ToolCallRequest,
        outcome: ToolOutcome,
      ): ToolOutcome {
        return outcome.text === ''
          ? standardFailure('output_validation', 'empty output')
          : super.validateOutput(run, request, outcome);
      }
    }
    const provider = new FunctionProvider().add('blank', () => '');
    const result = await new NoEmpty(model(), provider).invokeToolCall(call('blank'));
    expect(result.outcome.error).toMatchObject({ code: 'output_validation', message: 'empty output' });
  });

  it('completeToolCall: an override sees executed calls and calls refused by a gate', async () => {
    const completed: string[] = [];
    class Counting extends LlmAgentRunner {
      protected override completeToolCall(run: RunInProgress, toolCall: ModelToolCall, result: CompletedCall) {
        completed.push(`${toolCall.id}:${result.outcome.ok ? 'ok' : result.outcome.error?.code}`);
        return super.completeToolCall(run, toolCall, result);
      }
    }
    const runner = new Counting(model(), echo());
    await runner.invokeToolCall(call('echo', { text: 'a' }, 'c1'));
    await runner.invokeToolCall(call('nope', {}, 'c2'));
    await runner.invokeToolCall(call('echo', { text: 1 }, 'c3'));
    expect(completed).toEqual(['c1:ok', 'c2:unknown_tool', 'c3:invalid_arguments']);
  });

  it('projectForModel: executed, gate-refused and turn-refused calls all reach the model through the override', async () => {
    class Redacting extends LlmAgentRunner {
      protected override projectForModel(
        run: RunInProgress,
        toolCall: ModelToolCall,
        outcome: ToolOutcome,
      ): ModelProjection {
        const projected = super.projectForModel(run, toolCall, outcome);
        return { ...projected, content: `[${toolCall.id}] ${projected.content.length} chars` };
      }
    }
    const scripted = new ScriptedModelClient([
      {
        toolCalls: [
          { id: 'a', name: 'echo', arguments: { text: 'x' } },
          { id: 'b', name: 'nope' },
          { id: 'a', name: 'echo', arguments: { text: 'y' } },
        ],
      },
      { toolCalls: [{ id: 'd', name: 'echo', arguments: { text: 'z' } }], stopReason: 'max_tokens' },
      { text: 'done' },
    ]);
    const result = await new Redacting(scripted, echo()).complete('go');
    const toolMessages = result.messages.filter(
      (message): message is Extract<ChatMessage, { role: 'tool' }> => message.role === 'tool',
    );
    expect(toolMessages.map((message) => message.content.replace(/ \d+ chars$/, ''))).toEqual([
      '[a]',
      '[b]',
      '[a]',
      '[d]',
    ]);
  });
});

describe('ToolCallPipeline per-call path and LlmAgentRunner loop', () => {
  it('executeToolCall: complete() and invokeToolCall() run every call through the override', async () => {
    const ids: string[] = [];
    class Tracing extends LlmAgentRunner {
      protected override executeToolCall(run: RunInProgress, toolCall: ModelToolCall): Promise<ToolCallResult> {
        ids.push(toolCall.id);
        return super.executeToolCall(run, toolCall);
      }
    }
    const scripted = new ScriptedModelClient([
      {
        toolCalls: [
          { id: 't1', name: 'echo', arguments: { text: 'x' } },
          { id: 't2', name: 'echo', arguments: { text: 'y' } },
        ],
      },
      { text: 'done' },
    ]);
    const runner = new Tracing(scripted, echo());
    await runner.complete('go');
    await runner.invokeToolCall(call('echo', { text: 'z' }, 't3'));
    expect(ids).toEqual(['t1', 't2', 't3']);
  });

  it('requestModel: runStep uses the override instead of the model client', async () => {
    const client = model();
    class Canned extends LlmAgentRunner {
      protected override async requestModel(run: RunInProgress): Promise<ModelResponse> {
        run.steps++;
        return { text: 'canned', toolCalls: [], stopReason: 'end_turn', usage: { inputTokens: 1, outputTokens: 2 } };
      }
    }
    const result = await new Canned(client, echo()).complete('hi');
    expect(result).toMatchObject({ text: 'canned', steps: 1, stopReason: 'end_turn' });
    expect(client.requests).toHaveLength(0);
  });

  it('recordMessage: every message of the run goes through the override', async () => {
    const roles: string[] = [];
    class Recording extends LlmAgentRunner {
      protected override recordMessage(run: RunInProgress, message: ChatMessage): Promise<void> {
        roles.push(message.role);
        return super.recordMessage(run, message);
      }
    }
    const scripted = new ScriptedModelClient([
      { toolCalls: [{ name: 'echo', arguments: { text: 'x' } }] },
      { text: 'done' },
    ]);
    await new Recording(scripted, echo()).complete('go');
    expect(roles).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it('runStep and finishRun: overrides shape the loop and the result', async () => {
    class OneStep extends LlmAgentRunner {
      protected override async runStep(run: RunInProgress): Promise<void> {
        await super.runStep(run);
        if (run.stopReason === undefined) run.stopReason = 'other';
      }
      protected override finishRun(run: RunInProgress): LlmAgentRunResult {
        return { ...super.finishRun(run), text: `finished after ${run.steps}` };
      }
    }
    const scripted = new ScriptedModelClient([
      { toolCalls: [{ name: 'echo', arguments: { text: 'x' } }] },
      { text: 'never asked' },
    ]);
    const result = await new OneStep(scripted, echo()).complete('go');
    expect(result).toMatchObject({ stopReason: 'other', steps: 1, text: 'finished after 1' });
    expect(scripted.requests).toHaveLength(1);
  });

  it('refuseIncompleteToolCalls: an override decides what the calls of a cut answer get', async () => {
    class Lenient extends LlmAgentRunner {
      protected override refuseIncompleteToolCalls(
        run: RunInProgress,
        calls: readonly ModelToolCall[],
      ): ToolCallResult[] {
        return calls.map((toolCall) =>
          this.refuseToolCall(run, toolCall, standardFailure('incomplete_tool_call', 'cut, please retry shorter')),
        );
      }
    }
    const scripted = new ScriptedModelClient([
      { toolCalls: [{ id: 'x', name: 'echo', arguments: { text: 'x' } }], stopReason: 'max_tokens' },
      { text: 'done' },
    ]);
    const result = await new Lenient(scripted, echo()).complete('go');
    expect(result.messages[2]).toMatchObject({ role: 'tool', toolCallId: 'x', isError: true });
    expect((result.messages[2] as { content: string }).content).toContain('cut, please retry shorter');
    expect(result.toolCalls).toHaveLength(0);
  });
});
