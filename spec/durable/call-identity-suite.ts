import { canonicalArgumentsSha256 } from '../../lib/durable';
import { ChatMessage, LlmAgentRunner, RunStore, ScriptedModelClient, toolText } from '../../lib';
import { deriveIdempotencyKey } from '../../lib/runner';
import { FunctionProvider } from '../runner/support';

/** Builds a fresh, empty store. */
export type CallIdentityStoreFactory = () => Promise<RunStore>;

type Idempotency = 'idempotent' | 'non_idempotent';

/** A provider with one tool, `lookup`, that answers `ran <n>` and receives the idempotency key. */
function lookupProvider(idempotency: Idempotency): FunctionProvider {
  return new FunctionProvider({ idempotencyKey: true }).add(
    'lookup',
    (invocation) => `ran ${invocation.arguments.n as number}`,
    { sideEffect: 'write', idempotency },
    { n: { type: 'integer' } },
  );
}

/**
 * A model that sends `call_0` in turn 1 and again in turn 2 (as several OpenAI-compatible servers do), then finishes.
 */
function reusingModel(first: number, second: number): ScriptedModelClient {
  return new ScriptedModelClient([
    { toolCalls: [{ id: 'call_0', name: 'lookup', arguments: { n: first } }] },
    { toolCalls: [{ id: 'call_0', name: 'lookup', arguments: { n: second } }] },
    { text: 'done' },
  ]);
}

const toolContents = (messages: readonly ChatMessage[]) =>
  messages.flatMap((message) => (message.role === 'tool' ? [message.content] : []));

/**
 * Call identity per turn, through the runner, on one store: a call id the model reuses in a later turn is a new
 * call (its own stored row, Tool message, projection audit and idempotency key), and a resume reuses the outcome
 * admitted in the right turn.
 */
export function describeCallIdentity(name: string, factory: CallIdentityStoreFactory): void {
  describe(`${name}: a call id reused in a later turn`, () => {
    let store: RunStore;
    beforeEach(async () => {
      store = await factory();
    });
    afterEach(async () => {
      await store.close();
    });

    it.each<[Idempotency, number, number]>([
      ['non_idempotent', 1, 2],
      ['idempotent', 1, 2],
      ['non_idempotent', 7, 7],
      ['idempotent', 7, 7],
    ])(
      'runs both calls of a %s tool (arguments %i then %i), records both Tool messages, under distinct idempotency keys',
      async (idempotency, first, second) => {
        const provider = lookupProvider(idempotency);
        const runId = `reuse-${idempotency}-${first}-${second}`;
        const result = await new LlmAgentRunner(reusingModel(first, second), provider).complete('look twice', {
          store,
          runId,
        });

        expect(result.stopReason).toBe('end_turn');
        expect(provider.calls.map((call) => call.arguments)).toEqual([{ n: first }, { n: second }]);
        const keys = provider.calls.map((call) => call.idempotencyKey);
        expect(keys).toEqual([deriveIdempotencyKey(runId, 1, 'call_0'), deriveIdempotencyKey(runId, 2, 'call_0')]);
        expect(new Set(keys).size).toBe(2);
        expect(result.toolCalls.map((call) => [call.turn, call.callId, call.content, call.outcome.ok])).toEqual([
          [1, 'call_0', `ran ${first}`, true],
          [2, 'call_0', `ran ${second}`, true],
        ]);

        const record = (await store.loadRun(runId))!;
        expect(record.status).toBe('completed');
        expect(toolContents(record.messages)).toEqual([`ran ${first}`, `ran ${second}`]);
        expect(
          record.toolCalls.map((call) => [
            call.turn,
            call.callId,
            call.status,
            call.arguments,
            call.idempotencyKey,
            call.outcome,
          ]),
        ).toEqual([
          [1, 'call_0', 'admitted', { n: first }, keys[0], toolText(`ran ${first}`)],
          [2, 'call_0', 'admitted', { n: second }, keys[1], toolText(`ran ${second}`)],
        ]);
        expect(record.toolOutputProjections.map((projection) => [projection.turn, projection.callId])).toEqual([
          [1, 'call_0'],
          [2, 'call_0'],
        ]);
      },
    );

    it('still refuses an id repeated within one turn (duplicate_call_id, nothing runs), and runs it again in the next turn', async () => {
      const provider = lookupProvider('non_idempotent');
      const model = new ScriptedModelClient([
        {
          toolCalls: [
            { id: 'call_0', name: 'lookup', arguments: { n: 1 } },
            { id: 'call_0', name: 'lookup', arguments: { n: 2 } },
          ],
        },
        { toolCalls: [{ id: 'call_0', name: 'lookup', arguments: { n: 3 } }] },
        { text: 'done' },
      ]);
      const result = await new LlmAgentRunner(model, provider).complete('look', { store, runId: 'dup-in-turn' });
      expect(result.stopReason).toBe('end_turn');
      expect(provider.calls.map((call) => call.arguments)).toEqual([{ n: 1 }, { n: 3 }]);
      expect(
        result.toolCalls.map((call) => [call.turn, call.outcome.ok ? call.content : call.outcome.error?.code]),
      ).toEqual([
        [1, 'ran 1'],
        [1, 'duplicate_call_id'],
        [2, 'ran 3'],
      ]);
      const record = (await store.loadRun('dup-in-turn'))!;
      expect(record.toolCalls.map((call) => [call.turn, call.arguments])).toEqual([
        [1, { n: 1 }],
        [2, { n: 3 }],
      ]);
    });

    it('keeps the approvals of the two turns apart: an approval given in turn 1 does not approve turn 2', async () => {
      const provider = new FunctionProvider().add(
        'wipe',
        (invocation) => `wiped ${invocation.arguments.n as number}`,
        { sideEffect: 'destructive' },
        { n: { type: 'integer' } },
      );
      const model = new ScriptedModelClient([
        { toolCalls: [{ id: 'call_0', name: 'wipe', arguments: { n: 1 } }] },
        { toolCalls: [{ id: 'call_0', name: 'wipe', arguments: { n: 1 } }] },
        { text: 'done' },
      ]);
      const runner = new LlmAgentRunner(model, provider);
      expect((await runner.complete('wipe twice', { store, runId: 'approvals' })).stopReason).toBe('awaiting_approval');
      const sha = canonicalArgumentsSha256({ n: 1 });
      await store.decideApproval(
        'approvals',
        'call_0',
        { approved: true, toolName: 'wipe', argumentsSha256: sha },
        { turn: 1 },
      );
      expect((await runner.resume('approvals', { store })).stopReason).toBe('awaiting_approval');
      const waiting = (await store.loadRun('approvals'))!;
      expect(waiting.approvals.map((approval) => [approval.turn, approval.callId, approval.state])).toEqual([
        [1, 'call_0', 'approved'],
        [2, 'call_0', 'pending'],
      ]);
      expect(provider.calls).toHaveLength(1);
      await store.decideApproval(
        'approvals',
        'call_0',
        { approved: true, toolName: 'wipe', argumentsSha256: sha },
        { turn: 2 },
      );
      expect((await runner.resume('approvals', { store })).stopReason).toBe('end_turn');
      expect(provider.calls).toHaveLength(2);
      expect(toolContents((await store.loadRun('approvals'))!.messages)).toEqual(['wiped 1', 'wiped 1']);
    });

    /**
     * The record a crash leaves between the two turns: turn 1's `call_0` answered, turn 2's assistant message with
     * `call_0` again stored, its call started (and admitted, when `admitted`), no Tool message for it yet.
     */
    async function crashedInTurnTwo(runId: string, admitted: boolean): Promise<void> {
      const turn1 = { id: 'call_0', name: 'lookup', arguments: { n: 1 } };
      const turn2 = { id: 'call_0', name: 'lookup', arguments: { n: 2 } };
      await store.createRun({
        runId,
        messages: [
          { role: 'user', content: 'look twice' },
          { role: 'assistant', content: '', toolCalls: [turn1] },
          { role: 'tool', toolCallId: 'call_0', toolName: 'lookup', content: 'ran 1', isError: false },
        ],
      });
      // The model's turn 2, as the runner records a model response.
      await store.appendMessages(runId, [{ role: 'assistant', content: '', toolCalls: [turn2] }], { origin: 'model' });
      for (const [turn, args] of [
        [1, { n: 1 }],
        [2, { n: 2 }],
      ] as const) {
        const identity = {
          callId: 'call_0',
          turn,
          toolName: 'lookup',
          attempts: 1,
          arguments: args,
          argumentsSha256: canonicalArgumentsSha256(args),
        };
        await store.recordCallStarted(runId, {
          ...identity,
          idempotencyKey: deriveIdempotencyKey(runId, turn, 'call_0'),
        });
        if (turn === 1 || admitted) await store.admitOutcome(runId, 'call_0', toolText(`ran ${args.n}`), 1, { turn });
      }
    }

    it('resumes after a crash between the turns with the outcome admitted in turn 2, not the one of turn 1', async () => {
      await crashedInTurnTwo('crash-admitted', true);
      const provider = lookupProvider('non_idempotent');
      const model = new ScriptedModelClient([{ text: 'done' }]);
      const result = await new LlmAgentRunner(model, provider).resume('crash-admitted', { store });
      expect(result.stopReason).toBe('end_turn');
      expect(provider.calls).toHaveLength(0);
      expect(toolContents(model.requests[0].messages)).toEqual(['ran 1', 'ran 2']);
      const record = (await store.loadRun('crash-admitted'))!;
      expect(record.toolCalls.map((call) => [call.turn, call.outcome])).toEqual([
        [1, toolText('ran 1')],
        [2, toolText('ran 2')],
      ]);
      expect(record.toolOutputProjections.map((projection) => projection.turn)).toEqual([2]);
    });

    it.each<[Idempotency, string]>([
      ['non_idempotent', 'outcome_unknown'],
      ['idempotent', 'ran 2'],
    ])(
      'resumes a %s turn-2 call that started but was never admitted as its own call (%s), never as turn 1',
      async (idempotency, expected) => {
        const runId = `crash-started-${idempotency}`;
        await crashedInTurnTwo(runId, false);
        const provider = lookupProvider(idempotency);
        const model = new ScriptedModelClient([{ text: 'done' }]);
        const result = await new LlmAgentRunner(model, provider).resume(runId, { store });
        expect(result.stopReason).toBe('end_turn');
        const sent = toolContents(model.requests[0].messages);
        expect(sent[0]).toBe('ran 1');
        if (idempotency === 'idempotent') {
          expect(sent[1]).toBe(expected);
          expect(provider.calls.map((call) => [call.arguments, call.idempotencyKey])).toEqual([
            [{ n: 2 }, deriveIdempotencyKey(runId, 2, 'call_0')],
          ]);
        } else {
          expect(JSON.parse(sent[1]).error.code).toBe(expected);
          expect(provider.calls).toHaveLength(0);
        }
      },
    );
  });
}
