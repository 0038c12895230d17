import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AgentRunRecord, MemoryRunStore, RunStoreError } from '../../lib';
import { canonicalArgumentsSha256, parseAgentRunRecord } from '../../lib/durable';

const fixtureText = readFileSync(join(__dirname, 'fixtures', 'agent-run-record-v1.json'), 'utf8');

describe('parseAgentRunRecord', () => {
  it('reads the version-1 fixture and brings it to version 3', () => {
    const record = parseAgentRunRecord(fixtureText);
    expect(record.schemaVersion).toBe(3);
    expect(record.lease).toEqual({ workerId: 'worker-a', expiresAtMs: 1796040061280, fencingToken: 0 });
    expect(record.status).toBe('awaiting_approval');
    expect(record.toolCalls.map((call) => [call.callId, call.status])).toEqual([
      ['call_refund', 'admitted'],
      ['call_email', 'started'],
    ]);
    expect(record.toolOutputProjections[0]).toMatchObject({
      callId: 'call_refund',
      report: { truncated: false, trigger: null },
    });
    expect(record.approvals.map((approval) => approval.state)).toEqual(['approved', 'pending']);
  });

  it("gives a version-1 record's calls, projections and approvals the turn of the first assistant message carrying their id, else 1", () => {
    const fixture = JSON.parse(fixtureText) as {
      messages: unknown[];
      toolCalls: Record<string, unknown>[];
      approvals: Record<string, unknown>[];
    };
    const later = { ...fixture.toolCalls[1], callId: 'call_later' };
    const stray = { ...fixture.toolCalls[1], callId: 'call_stray' };
    const record = parseAgentRunRecord({
      ...fixture,
      messages: [
        ...fixture.messages,
        { role: 'assistant', content: '', toolCalls: [{ id: 'call_later', name: 'send_email', arguments: {} }] },
      ],
      toolCalls: [...fixture.toolCalls, later, stray],
      approvals: [...fixture.approvals, { ...fixture.approvals[1], callId: 'call_later' }],
    });
    expect(record.toolCalls.map((call) => [call.callId, call.turn])).toEqual([
      ['call_refund', 1],
      ['call_email', 1],
      ['call_later', 2],
      ['call_stray', 1],
    ]);
    expect(record.toolOutputProjections.map((audit) => audit.turn)).toEqual([1]);
    expect(record.approvals.map((approval) => [approval.callId, approval.turn])).toEqual([
      ['call_refund', 1],
      ['call_email', 1],
      ['call_later', 2],
    ]);
  });

  it('keeps the argument hashes stored by version 1 valid: canonicalization must never change', () => {
    const record: AgentRunRecord = parseAgentRunRecord(fixtureText);
    for (const call of record.toolCalls) expect(canonicalArgumentsSha256(call.arguments)).toBe(call.argumentsSha256);
    expect(JSON.parse(record.toolCalls[0].outcomeJson!)).toEqual(record.toolCalls[0].outcome);
  });

  it('rejects newer versions and malformed records with typed errors', () => {
    const fixture = JSON.parse(fixtureText) as Record<string, unknown>;
    expect(() => parseAgentRunRecord({ ...fixture, schemaVersion: 4 })).toThrow(
      expect.objectContaining({ code: 'schema_version_mismatch' }),
    );
    expect(() => parseAgentRunRecord({ ...fixture, schemaVersion: undefined })).toThrow(
      expect.objectContaining({ code: 'schema_version_mismatch' }),
    );
    expect(() => parseAgentRunRecord({ ...fixture, toolCalls: {} })).toThrow(
      expect.objectContaining({ code: 'record_invalid' }),
    );
    expect(() => parseAgentRunRecord({ ...fixture, status: 'paused' })).toThrow(RunStoreError);
    expect(() => parseAgentRunRecord('{not json')).toThrow(expect.objectContaining({ code: 'record_invalid' }));
  });

  it('matches the record a store builds by the same steps', async () => {
    const store = new MemoryRunStore();
    const record = await store.createRun({ runId: 'x' });
    expect(parseAgentRunRecord(JSON.parse(JSON.stringify(record)))).toEqual(record);
  });
});
