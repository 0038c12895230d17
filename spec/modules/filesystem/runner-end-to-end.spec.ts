import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { ScriptedModelClient } from '../../../lib/model/scripted-model-client';
import { FilesystemToolkit } from '../../../lib/modules/filesystem';
import { ProcessToolkit } from '../../../lib/modules/process';
import { LlmAgentRunner } from '../../../lib/runner/llm-agent-runner';
import { Sandbox, makeSandbox } from './sandbox';

describe('toolkits behind LlmAgentRunner', () => {
  let box: Sandbox;
  beforeEach(async () => {
    box = await makeSandbox();
    await fs.writeFile(path.join(box.root, 'notes.txt'), 'inside note');
  });
  afterEach(() => box.cleanup());

  it('answers a model that asks for ../../etc/passwd with a structured permission_denied', async () => {
    const toolkit = new FilesystemToolkit({ root: box.root });
    const model = new ScriptedModelClient([
      { toolCalls: [{ id: 'c1', name: 'fs_read', arguments: { path: '../../etc/passwd' } }] },
      { toolCalls: [{ id: 'c2', name: 'fs_read', arguments: { path: 'notes.txt' } }] },
      { text: 'done' },
    ]);
    const result = await new LlmAgentRunner(model, toolkit).complete('Show me the password file.');
    const [refused, allowed] = result.toolCalls;
    expect(refused.outcome.error).toMatchObject({
      code: 'permission_denied',
      category: 'permission',
      retryable: false,
      details: { reason: 'path_outside_root' },
    });
    expect(JSON.parse(refused.content)).toMatchObject({
      ok: false,
      error: { code: 'permission_denied', category: 'permission' },
    });
    expect(refused.content).not.toContain('root:');
    expect(JSON.parse(allowed.content)).toMatchObject({ content: 'inside note' });
    expect(toolkit.auditLog.map((entry) => [entry.path, entry.outcome, entry.code])).toEqual([
      ['../../etc/passwd', 'refused', 'path_outside_root'],
      ['notes.txt', 'allowed', undefined],
    ]);
    expect(result.text).toBe('done');
  });

  it('needs the runner approval for fs_delete (approval: always), so nothing is deleted without a handler', async () => {
    const toolkit = new FilesystemToolkit({ root: box.root });
    const model = new ScriptedModelClient([
      { toolCalls: [{ id: 'd1', name: 'fs_delete', arguments: { path: 'notes.txt' } }] },
      { text: 'ok' },
    ]);
    const result = await new LlmAgentRunner(model, toolkit).complete('Delete the notes.');
    expect(result.toolCalls[0].outcome.ok).toBe(false);
    expect(result.toolCalls[0].outcome.error?.category).toBe('permission');
    await expect(fs.readFile(path.join(box.root, 'notes.txt'), 'utf8')).resolves.toBe('inside note');
  });

  it('rejects an executable outside the allow list at schema validation, before the provider is called', async () => {
    const toolkit = new ProcessToolkit({ root: box.root, executables: { echo: '/bin/echo' } });
    const model = new ScriptedModelClient([
      { toolCalls: [{ id: 'p1', name: 'process_run', arguments: { executable: 'rm', args: ['-rf', '.'] } }] },
      { toolCalls: [{ id: 'p2', name: 'process_run', arguments: { executable: 'echo', args: ['hi'] } }] },
      { text: 'ok' },
    ]);
    const result = await new LlmAgentRunner(model, toolkit).complete('Clean up.');
    expect(result.toolCalls[0].outcome.error?.code).toBe('invalid_arguments');
    expect(JSON.parse(result.toolCalls[1].content)).toMatchObject({ exitCode: 0, stdout: 'hi\n' });
    expect(toolkit.auditLog).toHaveLength(1);
    await expect(fs.readFile(path.join(box.root, 'notes.txt'), 'utf8')).resolves.toBe('inside note');
  });
});
