import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { ChatMessage } from '../../lib';
import { ChainedRunRecord, canonicalArgumentsSha256 } from '../../lib/durable';
import { toolContentSha256 } from '../../lib/durable/chain/chain-entities';
import { SqliteRunStore } from '../../lib/durable/sqlite';
import { makeTempDir } from '../durable/temp-dir';
import { spawnCli } from './cli-harness';
import { PROMPT, runner } from './fixtures/approval-agent';

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
type ToolMessage = Extract<ChatMessage, { role: 'tool' }>;

/** The hashes a reader matches, worked out here from the record itself (not from the command's views). */
function expectedHashes(record: ChainedRunRecord, callId: string) {
  const call = record.toolCalls.find((candidate) => candidate.callId === callId)!;
  const message = record.messages.find(
    (candidate): candidate is ToolMessage => candidate.role === 'tool' && candidate.toolCallId === callId,
  )!;
  return {
    arguments: canonicalArgumentsSha256(call.arguments),
    outcome: sha256(call.outcomeJson!),
    projected: sha256(message.content),
    content: toolContentSha256(message),
  };
}

describe('hashes in runs show and the HTML timeline', () => {
  const dir = makeTempDir('cli-hashes');
  const path = join(dir.path, 'runs.db');
  let runId: string;
  let record: ChainedRunRecord;

  beforeAll(async () => {
    const store = new SqliteRunStore(path);
    runId = (await runner.complete(PROMPT, { store })).runId;
    const pending = (await store.loadRun(runId))!.approvals[0];
    await store.decideApproval(runId, pending.callId, {
      approved: true,
      toolName: pending.toolName,
      argumentsSha256: pending.argumentsSha256,
      decidedBy: 'ops@example.com',
    });
    await runner.resume(runId, { store });
    record = (await store.exportRun(runId))!;
    await store.close();
    expect(record.status).toBe('completed');
    expect(record.toolCalls.map((call) => call.status)).toEqual(['admitted', 'admitted']);
  }, 60_000);
  afterAll(() => dir.cleanup());

  it('runs show --json gives the chain head and, for each call, the arguments, outcome and seen-by-the-model hashes', async () => {
    const shown = await spawnCli(['runs', 'show', runId, '--store', `sqlite:${path}`, '--json'], dir.path);
    expect(shown.code).toBe(0);
    const view = JSON.parse(shown.stdout);
    expect(view.chain).toEqual({ entries: record.chain.entries.length, head: record.chain.head, migratedEntries: 0 });
    for (const callId of ['call_weather', 'call_delete']) {
      const hashes = expectedHashes(record, callId);
      expect(view.toolCalls.find((call: { callId: string }) => call.callId === callId)).toMatchObject({
        argumentsSha256: hashes.arguments,
        outcomeSha256: hashes.outcome,
        projectedSha256: hashes.projected,
        contentSha256: hashes.content,
      });
    }
    const deleted = expectedHashes(record, 'call_delete').arguments;
    expect(view.approvals).toEqual([
      expect.objectContaining({
        callId: 'call_delete',
        argumentsSha256: deleted,
        decidedArgumentsSha256: deleted,
        executedArgumentsSha256: deleted,
      }),
    ]);
  }, 30_000);

  it('runs show prints the chain head and every hash beside its call', async () => {
    const shown = await spawnCli(['runs', 'show', runId, '--store', `sqlite:${path}`], dir.path);
    expect(shown).toMatchObject({ code: 0, stderr: '' });
    expect(shown.stdout).toContain(`chain:    ${record.chain.entries.length} entries, head ${record.chain.head}`);
    const lines = shown.stdout.split('\n');
    const row = (callId: string, of: string, hash: string) =>
      expect(lines.some((line) => new RegExp(`^\\s+\\d+\\s+${callId}\\s+${of}\\s+${hash}$`).test(line))).toBe(true);
    for (const callId of ['call_weather', 'call_delete']) {
      const hashes = expectedHashes(record, callId);
      row(callId, 'arguments', hashes.arguments);
      row(callId, 'outcome', hashes.outcome);
      row(callId, 'model saw \\(text\\)', hashes.projected);
      row(callId, 'model saw \\(content\\)', hashes.content);
    }
    const deleted = expectedHashes(record, 'call_delete').arguments;
    row('call_delete', 'approval presented', deleted);
    row('call_delete', 'approval decided on', deleted);
    row('call_delete', 'approval executed', deleted);
  }, 30_000);

  it('the HTML timeline shows the chain head and each call its hashes', async () => {
    const exported = await spawnCli(['export', runId, '--store', `sqlite:${path}`, '--html', '-'], dir.path);
    expect(exported.code).toBe(0);
    const html = exported.stdout;
    expect(html).toContain(
      `<tr><th>record chain</th><td>${record.chain.entries.length} entries, head <code>${record.chain.head}</code>, 0 from migration</td></tr>`,
    );
    for (const callId of ['call_weather', 'call_delete']) {
      // The call's block: from its opening tag to the next call's.
      const block = html.split(`data-call="${callId}" data-turn="1">`)[1]?.split('<div class="call ')[0];
      expect(block).toBeDefined();
      const hashes = expectedHashes(record, callId);
      for (const [of, hash] of Object.entries(hashes))
        expect(block).toMatch(new RegExp(`<tr data-hash="${of}"><th>[^<]+</th><td><code>${hash}</code></td></tr>`));
    }
    const deleted = expectedHashes(record, 'call_delete').arguments;
    expect(html).toContain(`<tr data-hash="approval-presented"><th>approval presented</th><td><code>${deleted}</code>`);
    expect(html).toContain(`<tr data-hash="approval-decided"><th>approval decided on</th><td><code>${deleted}</code>`);
  }, 30_000);
});
