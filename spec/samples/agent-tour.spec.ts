import { MemoryRunStore } from '../../lib';
import { main, scriptedTourModel } from '../../samples/06-agent-tour/main';
import { settingsBackend } from '../../samples/06-agent-tour/tour-tools';

describe('samples/06-agent-tour/main', () => {
  it('shows every policy in one offline run', async () => {
    settingsBackend.attempts = 0;
    const store = new MemoryRunStore();
    const { lines, result } = await main({ model: scriptedTourModel(), print: () => undefined, store });
    expect(lines[0]).toContain('model: scripted (offline');
    expect(result.stopReason).toBe('end_turn');
    const byName = new Map(result.toolCalls.map((call) => [call.toolName, call]));
    expect(byName.get('get_weather')!.outcome).toEqual({ ok: true, text: 'Tokyo is 22 degrees Celsius.' });
    expect(byName.get('update_setting')!.attempts).toBe(2);
    expect(byName.get('update_setting')!.outcome.resourceVersion).toBe(2);
    expect(byName.get('build_report')!.outcome.error?.code).toBe('timeout');
    expect(byName.get('read_log')!.projection?.truncated).toBe(true);
    expect(Buffer.byteLength(byName.get('read_log')!.content)).toBeLessThanOrEqual(4096);
    expect(byName.get('delete_database')!.outcome.error?.code).toBe('approval_denied');
    expect(byName.get('reindex_search')!.outcome).toEqual({ ok: true, data: { shards: 4, status: 'rebuilt' } });
    expect(lines.filter((line) => line.includes('heartbeat'))).toHaveLength(4);
    expect(lines.some((line) => line.includes('retrying in'))).toBe(true);
    expect(lines.some((line) => line.includes('[projection] read_log output cut'))).toBe(true);
    expect(result.text).toContain('Failed: build_report, delete_database');
    const record = (await store.loadRun(result.runId))!;
    expect(record.status).toBe('completed');
    // the refused destructive call never started, so only the five that ran are admitted
    expect(record.toolCalls.map((call) => call.toolName).sort()).toEqual([
      'build_report',
      'get_weather',
      'read_log',
      'reindex_search',
      'update_setting',
    ]);
    expect(lines[lines.length - 1]).toContain('is completed; 5 tool outcomes admitted, 5 projections audited');
  });
});
