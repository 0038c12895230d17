import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AgentRunRecord, canonicalArgumentsSha256, MemoryRunStore, parseAgentRunRecord, RunStoreError } from '../../lib/durable';

const fixtureText = readFileSync(join(__dirname, 'fixtures', 'agent-run-record-v1.json'), 'utf8');

describe('parseAgentRunRecord', () => {
  it('reads the version-1 fixture and brings it to version 2', () => {
    const record = parseAgentRunRecord(fixtureText);
    expect(record.schemaVersion).toBe(2);
    expect(record.lease).toEqual({ workerId: 'worker-a', expiresAtMs: 1796040061280, fencingToken: 0 });
    expect(record.status).toBe('awaiting_approval');
    expect(record.toolCalls.map((call) => [call.callId, call.status])).toEqual([
      ['call_refund', 'admitted'],
      ['call_email', 'started'],
    ]);
    expect(record.toolOutputProjections[0]).toMatchObject({ callId: 'call_refund', report: { truncated: false, trigger: null } });
    expect(record.approvals.map((approval) => approval.state)).toEqual(['approved', 'pending']);
  });

  it('keeps the argument hashes stored by version 1 valid: canonicalization must never change', () => {
    const record: AgentRunRecord = parseAgentRunRecord(fixtureText);
    for (const call of record.toolCalls) expect(canonicalArgumentsSha256(call.arguments)).toBe(call.argumentsSha256);
    expect(JSON.parse(record.toolCalls[0].outcomeJson!)).toEqual(record.toolCalls[0].outcome);
  });

  it('rejects newer versions and malformed records with typed errors', () => {
    const fixture = JSON.parse(fixtureText) as Record<string, unknown>;
    expect(() => parseAgentRunRecord({ ...fixture, schemaVersion: 3 })).toThrow(expect.objectContaining({ code: 'schema_version_mismatch' }));
    expect(() => parseAgentRunRecord({ ...fixture, schemaVersion: undefined })).toThrow(expect.objectContaining({ code: 'schema_version_mismatch' }));
    expect(() => parseAgentRunRecord({ ...fixture, toolCalls: {} })).toThrow(expect.objectContaining({ code: 'record_invalid' }));
    expect(() => parseAgentRunRecord({ ...fixture, status: 'paused' })).toThrow(RunStoreError);
    expect(() => parseAgentRunRecord('{not json')).toThrow(expect.objectContaining({ code: 'record_invalid' }));
  });

  it('matches the record a store builds by the same steps', async () => {
    const store = new MemoryRunStore();
    const record = await store.createRun({ runId: 'x' });
    expect(parseAgentRunRecord(JSON.parse(JSON.stringify(record)))).toEqual(record);
  });
});
