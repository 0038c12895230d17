import { LlmAgentRunner, ScriptedModelClient, ToolCallRequest, ToolOutcome } from '../../lib';
import { FunctionProvider } from './support';

describe('onToolResult', () => {
  it('receives the final outcome of every call that has a validated request, refused ones included', async () => {
    const delivered: { callId: string; code: string }[] = [];
    const provider = new FunctionProvider()
      .add('ok', () => 'fine')
      .add('forbidden', () => 'never')
      .add('drop', () => 'never', { sideEffect: 'destructive' })
      .add('versioned', () => 'never', { resourceVersion: { requireExpectedVersion: true } });
    const model = new ScriptedModelClient([
      {
        toolCalls: [
          { id: 'c_ok', name: 'ok' },
          { id: 'c_forbidden', name: 'forbidden' },
          { id: 'c_drop', name: 'drop' },
          { id: 'c_versioned', name: 'versioned' },
          { id: 'c_unknown', name: 'nope' },
          { id: 'c_invalid', name: 'ok', arguments: { extra: 1 } },
          { id: 'c_ok', name: 'ok' },
        ],
      },
      { text: 'done' },
    ]);
    const result = await new LlmAgentRunner(model, provider).complete('go', {
      allowToolCall: (request) => request.toolName !== 'forbidden',
      onToolResult: (outcome: ToolOutcome, request: ToolCallRequest) =>
        void delivered.push({ callId: request.callId, code: outcome.error?.code ?? 'ok' }),
    });
    expect(result.toolCalls).toHaveLength(7);
    expect(delivered.sort((a, b) => a.callId.localeCompare(b.callId))).toEqual([
      { callId: 'c_drop', code: 'approval_denied' },
      { callId: 'c_forbidden', code: 'permission_denied' },
      { callId: 'c_ok', code: 'ok' },
      { callId: 'c_versioned', code: 'precondition_failed' },
    ]);
  });

  it('receives a call cancelled by an abort before the tool started', async () => {
    const delivered: string[] = [];
    const controller = new AbortController();
    const provider = new FunctionProvider().add('ok', () => 'fine');
    const runner = new LlmAgentRunner(new ScriptedModelClient([{ text: 'unused' }]), provider);
    controller.abort();
    const result = await runner.invokeToolCall(
      { id: 'c', name: 'ok', arguments: {} },
      { signal: controller.signal, onToolResult: (outcome) => void delivered.push(outcome.error?.code ?? 'ok') },
    );
    expect(result.outcome.error?.code).toBe('cancelled');
    expect(delivered).toEqual(['cancelled']);
  });
});
