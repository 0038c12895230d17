import {
  canonicalArgumentsSha256,
  CanonicalJsonError,
  ToolCallIdentity,
  ToolOutputProjectionInput,
} from '../../lib/durable';
import { RunStore, RunStoreError, toolData, toolFailure, toolText } from '../../lib';
import { sha256Hex } from '../../lib/durable/canonical-arguments';
import { ToolOutputProjectionReport } from '../../lib/projection';
import { PNG_1X1 } from '../support/tiny-images';

/** A clock tests move by hand. */
export interface TestClock {
  now: number;
  readonly read: () => number;
}

/** A clock starting at 2026-01-01T00:00:00Z. */
export function testClock(): TestClock {
  const clock = { now: Date.UTC(2026, 0, 1), read: () => clock.now };
  return clock;
}

/** Builds a fresh, empty store using `clock`. */
export type RunStoreFactory = (clock: () => number) => Promise<RunStore>;

/** A call identity for `args`. */
export function identity(
  callId: string,
  args: Record<string, unknown>,
  extra: Partial<ToolCallIdentity> = {},
): ToolCallIdentity {
  return {
    callId,
    toolName: 'send_email',
    attempts: 1,
    arguments: args as never,
    argumentsSha256: canonicalArgumentsSha256(args),
    ...extra,
  };
}

const report: ToolOutputProjectionReport = {
  truncated: true,
  originalBytes: 90_000,
  originalTokens: 20_000,
  projectedBytes: 65_000,
  projectedTokens: 9_000,
  maxBytes: 65_536,
  maxTokens: 10_000,
  trigger: 'bytes',
};

function projection(callId: string, content = 'projected'): ToolOutputProjectionInput {
  return { callId, toolName: 'send_email', projectedSha256: sha256Hex(content), report };
}

/** The behaviour every RunStore shares, run against one implementation. */
export function describeRunStore(name: string, factory: RunStoreFactory): void {
  describe(`${name} (RunStore)`, () => {
    let clock: TestClock;
    let store: RunStore;

    beforeEach(async () => {
      clock = testClock();
      store = await factory(clock.read);
    });
    afterEach(async () => {
      await store.close();
    });

    const code = (expected: string) => expect.objectContaining({ code: expected });

    describe('createRun / loadRun', () => {
      it('creates a version-3 record with the clock time and returns it on load', async () => {
        const created = await store.createRun({
          runId: 'r1',
          metadata: { agent: 'mail' },
          messages: [{ role: 'user', content: 'hi' }],
        });
        expect(created).toEqual({
          schemaVersion: 3,
          runId: 'r1',
          status: 'running',
          metadata: { agent: 'mail' },
          messages: [{ role: 'user', content: 'hi' }],
          messageOrigins: ['other'],
          toolCalls: [],
          toolOutputProjections: [],
          approvals: [],
          createdAt: '2026-01-01T00:00:00.000Z',
          updatedAt: '2026-01-01T00:00:00.000Z',
        });
        expect(await store.loadRun('r1')).toEqual(created);
        expect(await store.loadRun('nope')).toBeUndefined();
      });

      it('gives a random id when none is given and rejects a taken id', async () => {
        const a = await store.createRun();
        expect(a.runId).toMatch(/^[0-9a-f-]{36}$/);
        await expect(store.createRun({ runId: a.runId })).rejects.toEqual(code('run_exists'));
      });
    });

    describe('messages', () => {
      it('appends in order, replaces on save, and moves updatedAt', async () => {
        await store.createRun({ runId: 'r' });
        clock.now += 1000;
        await store.appendMessages('r', [{ role: 'user', content: 'a' }]);
        await store.appendMessages('r', [
          { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'send_email', arguments: { to: 'x' } }] },
          { role: 'tool', toolCallId: 'c1', toolName: 'send_email', content: 'sent', isError: false },
        ]);
        let record = (await store.loadRun('r'))!;
        expect(record.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
        expect(record.updatedAt).toBe('2026-01-01T00:00:01.000Z');
        await store.saveMessages('r', [{ role: 'user', content: 'compacted' }]);
        await store.appendMessages('r', [{ role: 'user', content: 'next' }]);
        record = (await store.loadRun('r'))!;
        expect(record.messages).toEqual([
          { role: 'user', content: 'compacted' },
          { role: 'user', content: 'next' },
        ]);
      });

      it('stores one origin per message from `origins`, and refuses a list that does not fit, writing nothing', async () => {
        await store.createRun({ runId: 'r', messages: [{ role: 'user', content: 'go' }] });
        const assistant = {
          role: 'assistant' as const,
          content: '',
          toolCalls: [{ id: 'c1', name: 'send', arguments: {} }],
        };
        const tool = { role: 'tool' as const, toolCallId: 'c0', toolName: 'send', content: 'sent', isError: false };
        await store.appendMessages('r', [tool, assistant], { origins: ['other', 'model'] });
        expect((await store.loadRun('r'))!.messageOrigins).toEqual(['other', 'other', 'model']);
        for (const origins of [
          ['model'],
          ['other', 'model', 'model'],
          ['other', 'unrecorded'],
          'model',
          [null, 'model'],
        ])
          await expect(store.appendMessages('r', [tool, assistant], { origins: origins as never })).rejects.toEqual(
            code('record_invalid'),
          );
        expect((await store.loadRun('r'))!.messages).toHaveLength(3);
      });

      it('round-trips a tool message with image parts and the images report of its projection', async () => {
        await store.createRun({ runId: 'r' });
        await store.recordCallStarted('r', identity('c1', { to: 'x' }));
        await store.admitOutcome(
          'r',
          'c1',
          toolText('shot', { images: [{ mediaType: 'image/png', data: PNG_1X1 }] }),
          1,
        );
        const message = {
          role: 'tool' as const,
          toolCallId: 'c1',
          toolName: 'send_email',
          content: 'shot',
          isError: false,
          parts: [
            { type: 'image' as const, mediaType: 'image/png', data: PNG_1X1 },
            { type: 'text' as const, text: '[image 1 omitted]' },
          ],
        };
        const images = {
          sent: 1,
          sentBytes: 70,
          omitted: [{ index: 1, bytes: 9_000_000, reason: 'too_large' as const }],
          maxImageBytes: 5_242_880,
          maxImages: 8,
        };
        await store.appendMessages('r', [{ role: 'user', content: 'go' }, message], {
          projections: [{ ...projection('c1', 'shot'), report: { ...report, images } }],
        });
        const record = (await store.loadRun('r'))!;
        expect(record.messages[1]).toEqual(message);
        expect(record.toolOutputProjections[0].report.images).toEqual(images);
        const admitted = record.toolCalls[0].outcome;
        expect(admitted?.ok && admitted.images).toEqual([{ mediaType: 'image/png', data: PNG_1X1 }]);
      });

      it('refuses a tool message whose parts are malformed (bad base64, other media type, __proto__ key), writing nothing', async () => {
        await store.createRun({ runId: 'r' });
        const tool = (parts: unknown) =>
          ({ role: 'tool', toolCallId: 'c1', toolName: 'send_email', content: 'x', isError: false, parts }) as never;
        for (const parts of [
          [{ type: 'image', mediaType: 'image/png', data: 'not base64!' }],
          [{ type: 'image', mediaType: 'image/svg+xml', data: PNG_1X1 }],
          JSON.parse(`[{"type":"image","mediaType":"image/png","data":"${PNG_1X1}","__proto__":{"polluted":true}}]`),
          [{ type: 'image', url: 'file:///etc/passwd' }],
        ]) {
          await expect(store.appendMessages('r', [tool(parts)])).rejects.toEqual(code('record_invalid'));
        }
        expect((await store.loadRun('r'))!.messages).toEqual([]);
      });

      it('rejects an unknown run and a message with no JSON form, writing nothing', async () => {
        await expect(store.appendMessages('nope', [{ role: 'user', content: 'a' }])).rejects.toEqual(
          code('run_not_found'),
        );
        await store.createRun({ runId: 'r' });
        const bad = { role: 'user', content: 10n } as never;
        await expect(store.appendMessages('r', [{ role: 'user', content: 'ok' }, bad])).rejects.toEqual(
          code('record_invalid'),
        );
        expect((await store.loadRun('r'))!.messages).toEqual([]);
      });
    });

    describe('status and listRuns', () => {
      it('sets the status and filters by it, oldest first', async () => {
        await store.createRun({ runId: 'a' });
        await store.createRun({ runId: 'b' });
        await store.createRun({ runId: 'c', status: 'awaiting_approval' });
        await store.setStatus('a', 'completed');
        expect((await store.listRuns()).map((run) => run.runId)).toEqual(['a', 'b', 'c']);
        expect((await store.listRuns('completed')).map((run) => run.runId)).toEqual(['a']);
        expect((await store.listRuns('awaiting_approval')).map((run) => run.status)).toEqual(['awaiting_approval']);
        await expect(store.setStatus('a', 'bogus' as never)).rejects.toEqual(code('record_invalid'));
        await expect(store.setStatus('zz', 'failed')).rejects.toEqual(code('run_not_found'));
      });
    });

    describe('recordCallStarted', () => {
      it('records a call once; starting it again returns the existing call and creates nothing', async () => {
        await store.createRun({ runId: 'r' });
        const first = await store.recordCallStarted(
          'r',
          identity('c1', { to: 'a@b.c', body: 'hi' }, { idempotencyKey: 'k1' }),
        );
        expect(first.created).toBe(true);
        expect(first.call).toEqual({
          runId: 'r',
          callId: 'c1',
          turn: 1,
          toolName: 'send_email',
          idempotencyKey: 'k1',
          attempts: 1,
          argumentsSha256: canonicalArgumentsSha256({ body: 'hi', to: 'a@b.c' }),
          arguments: { to: 'a@b.c', body: 'hi' },
          status: 'started',
          startedAt: '2026-01-01T00:00:00.000Z',
        });
        const again = await store.recordCallStarted(
          'r',
          identity('c1', { body: 'hi', to: 'a@b.c' }, { idempotencyKey: 'k1' }),
        );
        expect(again).toEqual({ created: false, call: first.call });
        expect((await store.loadRun('r'))!.toolCalls).toHaveLength(1);
      });

      it('rejects the same call id with another tool or other arguments', async () => {
        await store.createRun({ runId: 'r' });
        await store.recordCallStarted('r', identity('c1', { to: 'a' }));
        await expect(store.recordCallStarted('r', identity('c1', { to: 'b' }))).rejects.toEqual(code('call_conflict'));
        await expect(
          store.recordCallStarted('r', identity('c1', { to: 'a' }, { toolName: 'delete_all' })),
        ).rejects.toBeInstanceOf(RunStoreError);
        await expect(store.recordCallStarted('nope', identity('c1', { to: 'a' }))).rejects.toEqual(
          code('run_not_found'),
        );
      });

      it('identifies a call by turn and call id: the same id in another turn is another call, addressed by its turn', async () => {
        await store.createRun({ runId: 'r' });
        const first = await store.recordCallStarted(
          'r',
          identity('call_0', { to: 'a' }, { turn: 1, idempotencyKey: 'k-1' }),
        );
        const second = await store.recordCallStarted(
          'r',
          identity('call_0', { to: 'b' }, { turn: 2, idempotencyKey: 'k-2' }),
        );
        expect([first.created, second.created]).toEqual([true, true]);
        expect(second.call).toMatchObject({ callId: 'call_0', turn: 2, arguments: { to: 'b' }, idempotencyKey: 'k-2' });
        // Within one turn the id still binds: other arguments are a conflict.
        await expect(
          store.recordCallStarted('r', identity('call_0', { to: 'c' }, { turn: 2, idempotencyKey: 'k-3' })),
        ).rejects.toEqual(code('call_conflict'));
        await store.recordAttempt('r', 'call_0', 3, { turn: 2 });
        await store.admitOutcome('r', 'call_0', toolText('turn two'), 3, { turn: 2 });
        await expect(store.recordProjection('r', { ...projection('call_0'), turn: 1 })).rejects.toEqual(
          code('call_not_admitted'),
        );
        await store.recordProjection('r', { ...projection('call_0'), turn: 2 });
        await store.admitOutcome('r', 'call_0', toolText('turn one'), 1);
        await store.requestApproval('r', {
          callId: 'call_0',
          turn: 1,
          toolName: 'send_email',
          argumentsSha256: canonicalArgumentsSha256({ to: 'a' }),
        });
        await store.requestApproval('r', {
          callId: 'call_0',
          turn: 2,
          toolName: 'send_email',
          argumentsSha256: canonicalArgumentsSha256({ to: 'b' }),
        });
        await store.decideApproval(
          'r',
          'call_0',
          { approved: false, toolName: 'send_email', argumentsSha256: canonicalArgumentsSha256({ to: 'b' }) },
          { turn: 2 },
        );
        await expect(store.admitOutcome('r', 'call_0', toolText('x'), 1, { turn: 3 })).rejects.toEqual(
          code('call_not_found'),
        );
        const record = (await store.loadRun('r'))!;
        expect(record.toolCalls.map((call) => [call.turn, call.callId, call.attempts, call.outcome])).toEqual([
          [1, 'call_0', 1, toolText('turn one')],
          [2, 'call_0', 3, toolText('turn two')],
        ]);
        expect(record.toolOutputProjections.map((audit) => [audit.turn, audit.callId])).toEqual([[2, 'call_0']]);
        expect(record.approvals.map((approval) => [approval.turn, approval.state])).toEqual([
          [1, 'pending'],
          [2, 'denied'],
        ]);
      });

      it('rejects a turn that is not a positive integer', async () => {
        await store.createRun({ runId: 'r' });
        for (const turn of [0, -1, 1.5, Number.NaN])
          await expect(store.recordCallStarted('r', identity('c1', { to: 'a' }, { turn }))).rejects.toEqual(
            code('record_invalid'),
          );
        expect((await store.loadRun('r'))!.toolCalls).toEqual([]);
      });

      it('rejects a hash that is not the canonical hash of the arguments, and ill-formed strings', async () => {
        await store.createRun({ runId: 'r' });
        await expect(
          store.recordCallStarted('r', { ...identity('c1', { to: 'a' }), argumentsSha256: sha256Hex('x') }),
        ).rejects.toEqual(code('record_invalid'));
        await expect(
          store.recordCallStarted('r', { ...identity('c2', { to: 'a' }), arguments: { to: '\ud800' } }),
        ).rejects.toBeInstanceOf(CanonicalJsonError);
        expect((await store.loadRun('r'))!.toolCalls).toEqual([]);
      });

      it('raises attempts with recordAttempt, never lowers them', async () => {
        await store.createRun({ runId: 'r' });
        await store.recordCallStarted('r', identity('c1', { to: 'a' }));
        await store.recordAttempt('r', 'c1', 3);
        await store.recordAttempt('r', 'c1', 2);
        expect((await store.loadRun('r'))!.toolCalls[0].attempts).toBe(3);
        await expect(store.recordAttempt('r', 'zz', 2)).rejects.toEqual(code('call_not_found'));
      });
    });

    describe('admitOutcome', () => {
      const outcome = toolData(
        { zeta: 1, alpha: ['é', '😀', { b: 2, a: 1 }], big: 'x'.repeat(2000) },
        { metadata: { elapsedMs: 12 } },
      );

      it('admits the complete raw outcome and returns its exact JSON text', async () => {
        await store.createRun({ runId: 'r' });
        await store.recordCallStarted('r', identity('c1', { to: 'a' }));
        clock.now += 5;
        const admitted = await store.admitOutcome('r', 'c1', outcome, 2);
        expect(admitted.status).toBe('admitted');
        expect(admitted.attempts).toBe(2);
        expect(admitted.outcome).toEqual(outcome);
        expect(admitted.outcomeJson).toBe(JSON.stringify(outcome));
        expect(admitted.admittedAt).toBe('2026-01-01T00:00:00.005Z');
        expect((await store.loadRun('r'))!.toolCalls[0]).toEqual(admitted);
      });

      it('is a no-op for an equal outcome and rejects a different one, keeping the first', async () => {
        await store.createRun({ runId: 'r' });
        await store.recordCallStarted('r', identity('c1', { to: 'a' }));
        const first = await store.admitOutcome('r', 'c1', toolText('sent'), 1);
        clock.now += 1000;
        expect(await store.admitOutcome('r', 'c1', { text: 'sent', ok: true }, 1)).toEqual(first);
        await expect(
          store.admitOutcome('r', 'c1', toolFailure({ code: 'timeout', message: 'late' }), 2),
        ).rejects.toEqual(code('outcome_conflict'));
        expect((await store.loadRun('r'))!.toolCalls[0]).toEqual(first);
        await expect(store.recordAttempt('r', 'c1', 5)).rejects.toEqual(code('outcome_conflict'));
      });

      it('rejects a call that was never started and a value that is not an outcome', async () => {
        await store.createRun({ runId: 'r' });
        await expect(store.admitOutcome('r', 'c9', toolText('x'), 1)).rejects.toEqual(code('call_not_found'));
        await expect(store.admitOutcome('nope', 'c9', toolText('x'), 1)).rejects.toEqual(code('run_not_found'));
        await store.recordCallStarted('r', identity('c1', { to: 'a' }));
        await expect(store.admitOutcome('r', 'c1', { ok: true, bogus: 1 } as never, 1)).rejects.toEqual(
          code('invalid_outcome'),
        );
        await expect(store.admitOutcome('r', 'c1', { ok: true, data: 1n } as never, 1)).rejects.toEqual(
          code('invalid_outcome'),
        );
        expect((await store.loadRun('r'))!.toolCalls[0].status).toBe('started');
      });
    });

    describe('idempotency keys', () => {
      it('returns the admitted outcome byte for byte for the same arguments, in any run', async () => {
        await store.createRun({ runId: 'r1' });
        await store.createRun({ runId: 'r2' });
        const args = { to: 'a', amount: 10 };
        await store.recordCallStarted('r1', identity('c1', args, { idempotencyKey: 'pay-1' }));
        expect(await store.findAdmittedByIdempotencyKey('pay-1', canonicalArgumentsSha256(args))).toBeUndefined();
        const outcome = { ok: true as const, data: { receipt: 'R-1', cents: 1000 }, metadata: { z: 1, a: 2 } };
        const admitted = await store.admitOutcome('r1', 'c1', outcome, 1);
        const found = await store.findAdmittedByIdempotencyKey(
          'pay-1',
          canonicalArgumentsSha256({ amount: 10, to: 'a' }),
        );
        expect(found!.outcomeJson).toBe(JSON.stringify(outcome));
        expect(found).toEqual(admitted);
        const replay = await store.recordCallStarted(
          'r2',
          identity('c7', { amount: 10, to: 'a' }, { idempotencyKey: 'pay-1' }),
        );
        expect(replay.created).toBe(false);
        expect(replay.call.outcomeJson).toBe(JSON.stringify(outcome));
        expect((await store.loadRun('r2'))!.toolCalls).toEqual([]);
        expect(await store.findAdmittedByIdempotencyKey('unknown', canonicalArgumentsSha256(args))).toBeUndefined();
      });

      it('rejects a key presented again with different arguments and records nothing', async () => {
        await store.createRun({ runId: 'r1' });
        await store.createRun({ runId: 'r2' });
        await store.recordCallStarted('r1', identity('c1', { amount: 10 }, { idempotencyKey: 'pay-1' }));
        await store.admitOutcome('r1', 'c1', toolText('paid'), 1);
        await expect(
          store.recordCallStarted('r2', identity('c2', { amount: 99 }, { idempotencyKey: 'pay-1' })),
        ).rejects.toEqual(code('idempotency_conflict'));
        await expect(
          store.recordCallStarted('r1', identity('c2', { amount: 99 }, { idempotencyKey: 'pay-1' })),
        ).rejects.toEqual(code('idempotency_conflict'));
        await expect(
          store.findAdmittedByIdempotencyKey('pay-1', canonicalArgumentsSha256({ amount: 99 })),
        ).rejects.toEqual(code('idempotency_conflict'));
        expect((await store.loadRun('r2'))!.toolCalls).toEqual([]);
        expect((await store.loadRun('r1'))!.toolCalls.map((call) => call.callId)).toEqual(['c1']);
      });
    });

    describe('recordProjection', () => {
      it('links a projection to its admitted outcome once; recording it again is a no-op', async () => {
        await store.createRun({ runId: 'r' });
        await store.recordCallStarted('r', identity('c1', { to: 'a' }));
        await expect(store.recordProjection('r', projection('c1'))).rejects.toEqual(code('call_not_admitted'));
        await store.admitOutcome('r', 'c1', toolText('x'.repeat(90_000)), 1);
        clock.now += 7;
        const recorded = await store.recordProjection('r', projection('c1'));
        expect(recorded).toEqual({ ...projection('c1'), turn: 1, recordedAt: '2026-01-01T00:00:00.007Z' });
        clock.now += 7;
        expect(
          await store.recordProjection('r', { ...projection('c1'), report: { ...report, trigger: 'bytes' } }),
        ).toEqual(recorded);
        expect((await store.loadRun('r'))!.toolOutputProjections).toEqual([recorded]);
      });

      it('rejects binding the call id to different projection data', async () => {
        await store.createRun({ runId: 'r' });
        await store.recordCallStarted('r', identity('c1', { to: 'a' }));
        await store.admitOutcome('r', 'c1', toolText('x'), 1);
        const recorded = await store.recordProjection('r', projection('c1'));
        await expect(store.recordProjection('r', projection('c1', 'other content'))).rejects.toEqual(
          code('projection_conflict'),
        );
        await expect(
          store.recordProjection('r', { ...projection('c1'), report: { ...report, projectedBytes: 1 } }),
        ).rejects.toEqual(code('projection_conflict'));
        await expect(store.recordProjection('r', { ...projection('c1'), toolName: 'other' })).rejects.toEqual(
          code('projection_conflict'),
        );
        await expect(store.recordProjection('r', projection('c2'))).rejects.toEqual(code('call_not_found'));
        expect((await store.loadRun('r'))!.toolOutputProjections).toEqual([recorded]);
      });
    });

    describe('approvals', () => {
      const hash = canonicalArgumentsSha256({ to: 'a' });

      it('persists a pending approval and applies a decision that names the same call', async () => {
        await store.createRun({ runId: 'r' });
        const pending = await store.requestApproval('r', {
          callId: 'c1',
          toolName: 'send_email',
          argumentsSha256: hash,
        });
        expect(pending).toEqual({
          callId: 'c1',
          turn: 1,
          toolName: 'send_email',
          argumentsSha256: hash,
          state: 'pending',
          requestedAt: '2026-01-01T00:00:00.000Z',
        });
        expect(
          await store.requestApproval('r', { callId: 'c1', toolName: 'send_email', argumentsSha256: hash }),
        ).toEqual(pending);
        clock.now += 60_000;
        const decided = await store.decideApproval('r', 'c1', {
          approved: true,
          toolName: 'send_email',
          argumentsSha256: hash,
          decidedBy: 'ops',
          reason: 'ok',
        });
        expect(decided).toEqual({
          ...pending,
          state: 'approved',
          decidedBy: 'ops',
          reason: 'ok',
          decidedAt: '2026-01-01T00:01:00.000Z',
          decidedArgumentsSha256: hash,
        });
        expect(
          await store.decideApproval('r', 'c1', { approved: true, toolName: 'send_email', argumentsSha256: hash }),
        ).toEqual(decided);
        await expect(
          store.decideApproval('r', 'c1', { approved: false, toolName: 'send_email', argumentsSha256: hash }),
        ).rejects.toEqual(code('approval_mismatch'));
        expect((await store.loadRun('r'))!.approvals).toEqual([decided]);
      });

      it('rejects a decision for other arguments or another tool, and leaves the request pending', async () => {
        await store.createRun({ runId: 'r' });
        await store.requestApproval('r', { callId: 'c1', toolName: 'send_email', argumentsSha256: hash });
        const other = canonicalArgumentsSha256({ to: 'everyone' });
        await expect(
          store.decideApproval('r', 'c1', { approved: true, toolName: 'send_email', argumentsSha256: other }),
        ).rejects.toEqual(code('approval_mismatch'));
        await expect(
          store.decideApproval('r', 'c1', { approved: true, toolName: 'delete_all', argumentsSha256: hash }),
        ).rejects.toEqual(code('approval_mismatch'));
        await expect(
          store.decideApproval('r', 'c2', { approved: true, toolName: 'send_email', argumentsSha256: hash }),
        ).rejects.toEqual(code('approval_not_found'));
        await expect(
          store.requestApproval('r', { callId: 'c1', toolName: 'send_email', argumentsSha256: other }),
        ).rejects.toEqual(code('approval_mismatch'));
        expect((await store.loadRun('r'))!.approvals.map((approval) => approval.state)).toEqual(['pending']);
      });

      it('names the turns that have an approval for the call id when the decision names another turn (approval_not_found)', async () => {
        await store.createRun({ runId: 'r' });
        await store.requestApproval('r', { callId: 'call_0', turn: 3, toolName: 'send_email', argumentsSha256: hash });
        await store.requestApproval('r', { callId: 'call_0', turn: 1, toolName: 'send_email', argumentsSha256: hash });
        await store.requestApproval('r', { callId: 'call_9', turn: 2, toolName: 'send_email', argumentsSha256: hash });
        const decision = { approved: true, toolName: 'send_email', argumentsSha256: hash };
        const error = await store
          .decideApproval('r', 'call_0', decision, { turn: 2 })
          .catch((caught: unknown) => caught);
        expect(error).toMatchObject({
          code: 'approval_not_found',
          runId: 'r',
          callId: 'call_0',
          turn: 2,
          approvalTurns: [1, 3],
        });
        expect((error as Error).message).toBe(
          'No approval was requested for this call in turn 2; approvals for this call id exist in turn(s) 1, 3: pass that turn (run r, turn 2, call call_0)',
        );
        const none = await store
          .decideApproval('r', 'call_5', decision, { turn: 2 })
          .catch((caught: unknown) => caught);
        expect(none).toMatchObject({ code: 'approval_not_found', approvalTurns: [] });
        expect((none as Error).message).toMatch(/no turn of the run has an approval for this call id/);
        expect((await store.loadRun('r'))!.approvals.map((approval) => approval.state)).toEqual([
          'pending',
          'pending',
          'pending',
        ]);
      });
    });

    describe('leases', () => {
      it('lets one worker hold a run until the lease expires', async () => {
        await store.createRun({ runId: 'r' });
        expect(await store.acquireLease('r', 'w1', 1000)).toBe(true);
        expect(await store.acquireLease('r', 'w2', 1000)).toBe(false);
        expect((await store.loadRun('r'))!.lease).toEqual({
          workerId: 'w1',
          expiresAtMs: clock.now + 1000,
          fencingToken: 1,
        });
        clock.now += 999;
        expect(await store.acquireLease('r', 'w2', 1000)).toBe(false);
        expect(await store.renewLease('r', 'w1', 1000)).toBe(true);
        clock.now += 1000;
        expect(await store.acquireLease('r', 'w2', 1000)).toBe(true);
        expect(await store.renewLease('r', 'w1', 1000)).toBe(false);
        expect(await store.releaseLease('r', 'w1')).toBe(false);
        expect(await store.acquireLease('r', 'w2', 5000)).toBe(true);
        expect(await store.releaseLease('r', 'w2')).toBe(true);
        expect((await store.loadRun('r'))!.lease).toBeUndefined();
        expect(await store.acquireLease('r', 'w1', 1000)).toBe(true);
      });

      it('rejects leases on unknown runs and bad durations', async () => {
        await expect(store.acquireLease('nope', 'w1', 1000)).rejects.toEqual(code('run_not_found'));
        await expect(store.renewLease('nope', 'w1', 1000)).rejects.toEqual(code('run_not_found'));
        await store.createRun({ runId: 'r' });
        await expect(store.acquireLease('r', 'w1', 0)).rejects.toEqual(code('record_invalid'));
      });

      it('creates a run leased in the same write, as acquireLease would', async () => {
        const created = await store.createRun({ runId: 'r', lease: { workerId: 'w1', ttlMs: 1000 } });
        const lease = { workerId: 'w1', expiresAtMs: clock.now + 1000, fencingToken: 1 };
        expect(created.lease).toEqual(lease);
        expect((await store.loadRun('r'))!.lease).toEqual(lease);
        expect(await store.acquireLease('r', 'w2', 1000)).toBe(false);
        await store.appendMessages('r', [{ role: 'user', content: 'by w1' }], { fencingToken: 1 });
        clock.now += 1000;
        expect(await store.acquireLease('r', 'w2', 1000)).toBe(true);
        await expect(store.setStatus('r', 'completed', { fencingToken: 1 })).rejects.toEqual(code('lease_held'));
        expect((await store.loadRun('r'))!.lease!.fencingToken).toBe(2);
        expect((await store.createRun({ runId: 'plain' })).lease).toBeUndefined();
      });

      it('refuses a malformed lease of a new run and creates nothing', async () => {
        const bad = [
          { workerId: '', ttlMs: 1000 },
          { workerId: 'w1', ttlMs: 0 },
          { workerId: 'w1', ttlMs: Number.NaN },
          { workerId: 'w1', ttlMs: '1000' },
          { workerId: 7, ttlMs: 1000 },
          null,
          'w1',
        ];
        for (const lease of bad)
          await expect(store.createRun({ runId: 'r', lease: lease as never })).rejects.toEqual(code('record_invalid'));
        expect(await store.loadRun('r')).toBeUndefined();
      });

      it('releases the lease with the status when asked, and says whether it did', async () => {
        const created = await store.createRun({ runId: 'r', lease: { workerId: 'w1', ttlMs: 1000 } });
        const fencingToken = created.lease!.fencingToken;
        await expect(store.setStatus('r', 'completed', { fencingToken, releaseLease: 'w2' })).resolves.toEqual({
          leaseReleased: false,
        });
        expect((await store.loadRun('r'))!.lease!.workerId).toBe('w1');
        await expect(store.setStatus('r', 'completed', { fencingToken, releaseLease: 'w1' })).resolves.toEqual({
          leaseReleased: true,
        });
        const record = (await store.loadRun('r'))!;
        expect(record.status).toBe('completed');
        expect(record.lease).toBeUndefined();
        expect(await store.acquireLease('r', 'w2', 1000)).toBe(true);
        await expect(store.setStatus('r', 'stopped', { releaseLease: '' })).rejects.toEqual(code('record_invalid'));
        expect((await store.loadRun('r'))!.status).toBe('completed');
      });

      it('keeps the lease when a status write carrying it is refused', async () => {
        const created = await store.createRun({ runId: 'r', lease: { workerId: 'w1', ttlMs: 1000 } });
        clock.now += 1000;
        expect(await store.acquireLease('r', 'w2', 1000)).toBe(true);
        const stale = { fencingToken: created.lease!.fencingToken, releaseLease: 'w2' };
        await expect(store.setStatus('r', 'completed', stale)).rejects.toEqual(code('lease_held'));
        const record = (await store.loadRun('r'))!;
        expect(record.status).toBe('running');
        expect(record.lease!.workerId).toBe('w2');
      });
    });

    describe('fencing', () => {
      const fenced = (fencingToken: number) => ({ fencingToken });

      it('gives every acquisition a larger fencing token, kept across releases', async () => {
        await store.createRun({ runId: 'r' });
        const tokens: number[] = [];
        for (const worker of ['w1', 'w1', 'w2']) {
          expect(await store.acquireLease('r', worker, 1000)).toBe(true);
          tokens.push((await store.loadRun('r'))!.lease!.fencingToken);
          await store.releaseLease('r', worker);
        }
        expect(tokens).toEqual([1, 2, 3]);
      });

      it('refuses every write carrying a token that is not the current one, writing nothing', async () => {
        await store.createRun({ runId: 'r' });
        await store.acquireLease('r', 'w1', 1000);
        const stale = (await store.loadRun('r'))!.lease!.fencingToken;
        await store.appendMessages('r', [{ role: 'user', content: 'by w1' }], fenced(stale));
        await store.recordCallStarted('r', identity('c1', { to: 'a' }), fenced(stale));
        await store.requestApproval(
          'r',
          { callId: 'c9', toolName: 'send_email', argumentsSha256: canonicalArgumentsSha256({ to: 'a' }) },
          fenced(stale),
        );
        clock.now += 2000;
        expect(await store.acquireLease('r', 'w2', 1000)).toBe(true);
        const before = await store.loadRun('r');
        const refused = [
          store.appendMessages('r', [{ role: 'user', content: 'late' }], fenced(stale)),
          store.saveMessages('r', [], fenced(stale)),
          store.setStatus('r', 'completed', fenced(stale)),
          store.recordCallStarted('r', identity('c2', { to: 'b' }), fenced(stale)),
          store.recordAttempt('r', 'c1', 2, fenced(stale)),
          store.admitOutcome('r', 'c1', toolText('late'), 1, fenced(stale)),
          store.requestApproval(
            'r',
            { callId: 'c8', toolName: 'send_email', argumentsSha256: canonicalArgumentsSha256({ to: 'a' }) },
            fenced(stale),
          ),
          store.decideApproval(
            'r',
            'c9',
            { approved: true, toolName: 'send_email', argumentsSha256: canonicalArgumentsSha256({ to: 'a' }) },
            fenced(stale),
          ),
        ];
        for (const write of refused) await expect(write).rejects.toEqual(code('lease_held'));
        expect(await store.loadRun('r')).toEqual(before);
        const current = (await store.loadRun('r'))!.lease!.fencingToken;
        await store.admitOutcome('r', 'c1', toolText('sent'), 1, fenced(current));
        expect((await store.loadRun('r'))!.toolCalls[0].status).toBe('admitted');
      });
    });

    describe('a Tool message and its projection audit', () => {
      it('are written together by appendMessages', async () => {
        await store.createRun({ runId: 'r' });
        await store.recordCallStarted('r', identity('c1', { to: 'a' }));
        await store.admitOutcome('r', 'c1', toolText('x'), 1);
        const message = {
          role: 'tool' as const,
          toolCallId: 'c1',
          toolName: 'send_email',
          content: 'projected',
          isError: false,
        };
        await store.appendMessages('r', [message], { projections: [projection('c1')] });
        const record = (await store.loadRun('r'))!;
        expect(record.messages).toEqual([message]);
        expect(record.toolOutputProjections.map((entry) => entry.projectedSha256)).toEqual([sha256Hex('projected')]);
      });

      it('are both refused when either is: no audit without its message, no message without its audit', async () => {
        await store.createRun({ runId: 'r' });
        await store.recordCallStarted('r', identity('c1', { to: 'a' }));
        await store.admitOutcome('r', 'c1', toolText('x'), 1);
        const message = {
          role: 'tool' as const,
          toolCallId: 'c1',
          toolName: 'send_email',
          content: 'projected',
          isError: false,
        };
        await expect(
          store.appendMessages('r', [{ ...message, content: 10n } as never], { projections: [projection('c1')] }),
        ).rejects.toEqual(code('record_invalid'));
        await expect(store.appendMessages('r', [message], { projections: [projection('c2')] })).rejects.toEqual(
          code('call_not_found'),
        );
        const record = (await store.loadRun('r'))!;
        expect(record.messages).toEqual([]);
        expect(record.toolOutputProjections).toEqual([]);
      });
    });

    describe('cancelling a run', () => {
      it('cancels the approvals still pending, keeps the decided ones, and refuses later decisions', async () => {
        const hash = canonicalArgumentsSha256({ to: 'a' });
        await store.createRun({ runId: 'r' });
        await store.requestApproval('r', { callId: 'c1', toolName: 'send_email', argumentsSha256: hash });
        await store.requestApproval('r', { callId: 'c2', toolName: 'send_email', argumentsSha256: hash });
        await store.decideApproval('r', 'c2', { approved: true, toolName: 'send_email', argumentsSha256: hash });
        await store.setStatus('r', 'cancelled');
        expect((await store.loadRun('r'))!.approvals.map((approval) => approval.state)).toEqual([
          'cancelled',
          'approved',
        ]);
        await expect(
          store.decideApproval('r', 'c1', { approved: true, toolName: 'send_email', argumentsSha256: hash }),
        ).rejects.toEqual(code('approval_mismatch'));
      });

      it('keeps a run stopped by its step limit apart from a completed one', async () => {
        await store.createRun({ runId: 'r' });
        await store.setStatus('r', 'stopped');
        expect((await store.listRuns('stopped')).map((run) => run.runId)).toEqual(['r']);
        expect(await store.listRuns('completed')).toEqual([]);
      });
    });

    // Where the dialects differ (check-then-insert under BEGIN IMMEDIATE in SQLite, ON CONFLICT and row locks
    // on several pooled connections in PostgreSQL), concurrent calls on one store must still agree.
    describe('concurrent operations', () => {
      it('start one call id once: exactly one caller creates it', async () => {
        await store.createRun({ runId: 'r' });
        const starts = await Promise.all(
          [1, 2, 3, 4].map(() => store.recordCallStarted('r', identity('c1', { to: 'a' }, { idempotencyKey: 'k' }))),
        );
        expect(starts.filter((start) => start.created)).toHaveLength(1);
        expect((await store.loadRun('r'))!.toolCalls).toHaveLength(1);
      });

      it('bind one idempotency key once across runs', async () => {
        await store.createRun({ runId: 'r1' });
        await store.createRun({ runId: 'r2' });
        const starts = await Promise.all(
          ['r1', 'r2'].map((runId) =>
            store.recordCallStarted(runId, identity(`c-${runId}`, { to: 'a' }, { idempotencyKey: 'pay' })),
          ),
        );
        expect(starts.filter((start) => start.created)).toHaveLength(1);
      });

      it('create a run id once', async () => {
        const results = await Promise.allSettled([1, 2, 3].map(() => store.createRun({ runId: 'same' })));
        expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
        expect(results.filter((result) => result.status === 'rejected').map((result) => result.reason.code)).toEqual([
          'run_exists',
          'run_exists',
        ]);
      });

      it('append every message with its own position', async () => {
        await store.createRun({ runId: 'r' });
        await Promise.all(
          ['a', 'b', 'c', 'd', 'e'].map((content) =>
            store.appendMessages('r', [
              { role: 'user', content },
              { role: 'user', content: content.toUpperCase() },
            ]),
          ),
        );
        const contents = (await store.loadRun('r'))!.messages.map((message) => message.content);
        expect(contents.slice().sort()).toEqual(['A', 'B', 'C', 'D', 'E', 'a', 'b', 'c', 'd', 'e']);
        for (const lower of ['a', 'b', 'c', 'd', 'e'])
          expect(contents.indexOf(lower.toUpperCase())).toBe(contents.indexOf(lower) + 1);
      });

      it('lease a run to one of several workers', async () => {
        await store.createRun({ runId: 'r' });
        const leased = await Promise.all(['w1', 'w2', 'w3'].map((worker) => store.acquireLease('r', worker, 1000)));
        expect(leased.filter(Boolean)).toHaveLength(1);
      });
    });

    it('throws store_closed after close', async () => {
      await store.close();
      await expect(store.loadRun('r')).rejects.toEqual(code('store_closed'));
      await expect(store.createRun()).rejects.toBeInstanceOf(RunStoreError);
    });
  });
}
