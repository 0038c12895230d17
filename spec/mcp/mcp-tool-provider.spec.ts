import { mkdtempSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { descriptorFromMcpTool, McpHttpHandler, McpSetupError, McpToolProvider } from '../../lib/mcp';
import { ModelStepper } from '../../lib/model/model-stepper';
import {
  composeToolProviders,
  ReflectedToolProvider,
  ToolProvider,
  LlmAgentEvent,
  LlmAgentRunner,
  LlmAgentRunOptions,
} from '../../lib';
import { JsonObject } from '../../lib/outcome/json-value';
import { aborted, Echo, provider as servedProvider } from './fixtures/served-tools';
import { listenHttp, ROOT } from './mcp-support';

const NO_MODEL: ModelStepper = { modelName: 'none', step: () => Promise.reject(new Error('no model in these tests')) };
const EVERYTHING = {
  transport: 'stdio' as const,
  command: process.execPath,
  args: [join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
  stderr: 'ignore' as const,
};

let callNumber = 0;
function call(provider: ToolProvider, name: string, args: JsonObject, options: LlmAgentRunOptions = {}) {
  return new LlmAgentRunner(NO_MODEL, provider).invokeToolCall(
    { id: `call-${++callNumber}`, name, arguments: args },
    options,
  );
}

describe('descriptorFromMcpTool', () => {
  it('reads missing hints as the MCP specification does: possibly destructive, not idempotent, so approval applies', () => {
    const descriptor = descriptorFromMcpTool({ name: 'drop', inputSchema: { type: 'object' } }, 'db');
    expect(descriptor).toMatchObject({
      name: 'drop',
      sideEffect: 'destructive',
      idempotency: 'non_idempotent',
      approval: 'when_destructive',
      metadata: { mcpServer: 'db', mcpTool: 'drop', openWorld: true },
    });
    expect(
      descriptorFromMcpTool(
        { name: 'put', inputSchema: { type: 'object' }, annotations: { destructiveHint: false } },
        'db',
      ).sideEffect,
    ).toBe('write');
    const read = descriptorFromMcpTool(
      { name: 'get', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, idempotentHint: true } },
      'db',
      { toolNamePrefix: 'db_', timeoutMs: 500 },
    );
    expect(read).toMatchObject({
      name: 'db_get',
      sideEffect: 'read',
      idempotency: 'idempotent',
      timeoutMs: 500,
      heartbeat: { idleTimeoutMs: 500 },
    });
  });
});

describe('McpToolProvider against @modelcontextprotocol/server-everything (stdio child process)', () => {
  let everything: McpToolProvider;
  beforeAll(async () => {
    everything = await McpToolProvider.connect({ server: EVERYTHING });
  }, 60000);
  afterAll(() => everything.close());

  it('takes each contract from the annotations and the output schema', () => {
    const byName = new Map(everything.listTools().map((descriptor) => [descriptor.name, descriptor]));
    expect(byName.get('echo')).toMatchObject({ sideEffect: 'read', idempotency: 'idempotent' });
    expect(byName.get('get-structured-content')!.outputSchema).toMatchObject({
      type: 'object',
      properties: { temperature: { type: 'number' } },
    });
  });

  it('runs a call and validates structuredContent against the output schema', async () => {
    expect((await call(everything, 'echo', { message: 'hi there' })).outcome).toMatchObject({
      ok: true,
      text: expect.stringContaining('hi there'),
    });
    const structured = await call(everything, 'get-structured-content', { location: 'Chicago' });
    expect(structured.outcome).toMatchObject({
      ok: true,
      data: { temperature: expect.any(Number), conditions: expect.any(String), humidity: expect.any(Number) },
    });
    expect(structured.outcome.metadata).toBeUndefined();
  });

  it('turns the PNG of an image block into outcome images, sent to the model as a Tool message part', async () => {
    const result = await call(everything, 'get-tiny-image', {});
    expect(result.outcome).toMatchObject({ ok: true, text: expect.stringContaining('[image]') });
    expect(result.outcome.images).toEqual([{ mediaType: 'image/png', data: expect.stringMatching(/^iVBORw0KGgo/) }]);
    expect(result.parts).toEqual([{ type: 'image', mediaType: 'image/png', data: result.outcome.images![0].data }]);
    expect(result.projection!.images).toMatchObject({ sent: 1, omitted: [] });
  });

  it('turns progress notifications into heartbeats', async () => {
    const events: LlmAgentEvent[] = [];
    const result = await call(
      everything,
      'trigger-long-running-operation',
      { duration: 0.3, steps: 3 },
      { onEvent: (event) => events.push(event) },
    );
    expect(result.outcome.ok).toBe(true);
    const heartbeats = events.flatMap((event) => (event.type === 'tool_heartbeat' ? [event.progress?.fraction] : []));
    expect(heartbeats).toEqual([1 / 3, 2 / 3, 1]);
  });

  it('cancels the call on the server when its deadline passes, and the server goes on serving', async () => {
    const hurried = await McpToolProvider.connect({ server: EVERYTHING, timeoutMs: 500 });
    try {
      const startedAt = Date.now();
      const result = await call(hurried, 'trigger-long-running-operation', { duration: 10, steps: 2 });
      expect(result.outcome.error?.code).toBe('timeout');
      expect(Date.now() - startedAt).toBeLessThan(5000);
      expect((await call(hurried, 'echo', { message: 'still here' })).outcome.ok).toBe(true);
      expect(hurried.restarts).toBe(0);
    } finally {
      await hurried.close();
    }
  }, 30000);

  it('gives a typed outcome when the server crashes mid-call and starts it again on the next call', async () => {
    const crashing = await McpToolProvider.connect({ server: EVERYTHING });
    try {
      const firstPid = crashing.pid!;
      const running = call(crashing, 'trigger-long-running-operation', { duration: 5, steps: 5 });
      await new Promise((resolve) => setTimeout(resolve, 300));
      process.kill(firstPid, 'SIGKILL');
      const crashed = await running;
      expect(crashed.outcome.error).toMatchObject({ code: 'unavailable', category: 'unavailable', retryable: true });
      expect(crashed.outcome.error?.message).toContain('went away');
      const next = await call(crashing, 'echo', { message: 'back' });
      expect(next.outcome.ok).toBe(true);
      expect(crashing.restarts).toBe(1);
      expect(crashing.pid).not.toBe(firstPid);
    } finally {
      await crashing.close();
    }
  }, 60000);

  it('reports a server that cannot start as McpSetupError server_unreachable', async () => {
    const failure = McpToolProvider.connect({
      server: { transport: 'stdio', command: process.execPath, args: ['-e', 'process.exit(3)'], stderr: 'ignore' },
    });
    await expect(failure).rejects.toThrow(McpSetupError);
    await expect(failure).rejects.toMatchObject({ code: 'server_unreachable' });
  });
});

describe('McpToolProvider against @modelcontextprotocol/server-filesystem (stdio child process)', () => {
  let folder: string;
  let filesystem: McpToolProvider;
  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'wuwe-mcp-fs-'));
    filesystem = await McpToolProvider.connect({
      server: {
        transport: 'stdio',
        command: process.execPath,
        args: [join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js'), folder],
        stderr: 'ignore',
      },
      toolNamePrefix: 'fs_',
    });
  }, 60000);
  afterAll(async () => {
    await filesystem.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('needs approval for a destructive tool: without a decision nothing is written', async () => {
    const target = join(folder, 'denied.txt');
    const result = await call(filesystem, 'fs_write_file', { path: target, content: 'x' });
    expect(result.outcome.error?.code).toBe('approval_denied');
    expect(existsSync(target)).toBe(false);
  });

  it('writes once approved, and runs a non-destructive write without asking', async () => {
    const asked: string[] = [];
    const approvalHandler = (request: { toolName: string }) => {
      asked.push(request.toolName);
      return { approved: true };
    };
    const target = join(folder, 'approved.txt');
    expect(
      (await call(filesystem, 'fs_write_file', { path: target, content: 'hello' }, { approvalHandler })).outcome.ok,
    ).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('hello');
    expect(
      (await call(filesystem, 'fs_create_directory', { path: join(folder, 'sub') }, { approvalHandler })).outcome.ok,
    ).toBe(true);
    expect(existsSync(join(folder, 'sub'))).toBe(true);
    expect(asked).toEqual(['fs_write_file']);
    const read = await call(filesystem, 'fs_read_text_file', { path: target });
    expect(read.outcome).toMatchObject({ ok: true });
    expect(JSON.stringify(read.outcome)).toContain('hello');
  });

  it('keeps the server-side refusal as a failure outcome (a path outside the allowed folder)', async () => {
    const result = await call(filesystem, 'fs_read_text_file', { path: join(tmpdir(), 'outside-wuwe.txt') });
    expect(result.outcome.ok).toBe(false);
    expect(result.outcome.error?.code).toBe('tool_error');
  });
});

describe('round trip: wuwe server -> wuwe client', () => {
  const direct = composeToolProviders(servedProvider, new ReflectedToolProvider([Echo]));
  let http: Awaited<ReturnType<typeof listenHttp>>;
  let remote: McpToolProvider;
  beforeAll(async () => {
    http = await listenHttp(new McpHttpHandler(direct));
    remote = await McpToolProvider.connect({ server: { transport: 'http', url: http.url } });
  });
  afterAll(async () => {
    await remote.close();
    await http.close();
  });

  it('keeps every contract field MCP can carry', () => {
    const local = new Map(direct.listTools().map((descriptor) => [descriptor.name, descriptor]));
    for (const descriptor of remote.listTools()) {
      const original = local.get(descriptor.name)!;
      expect(descriptor.inputSchema).toEqual(original.inputSchema);
      expect(descriptor.outputSchema).toEqual(original.outputSchema);
      expect(descriptor.idempotency === 'idempotent').toBe(original.idempotency === 'idempotent');
      expect(descriptor.sideEffect === 'destructive').toBe(original.sideEffect === 'destructive');
    }
  });

  it.each<[string, JsonObject]>([
    ['add', { a: 2, b: 40 }],
    ['add', { a: 'two' }],
    ['lookup', {}],
    ['Echo', { text: 'same' }],
    ['count_slowly', { steps: 2 }],
    ['delete_item', { id: 'x' }],
    ['missing_tool', {}],
  ])('gives the outcome and the Tool message of a direct call (%s %j)', async (name, args) => {
    const local = await call(direct, name, args);
    const viaMcp = await call(remote, name, args);
    expect(viaMcp.outcome).toEqual(local.outcome);
    expect(viaMcp.content.replace(/available tools: .*/, '')).toBe(local.content.replace(/available tools: .*/, ''));
  });

  it('carries the heartbeats of the served tool to the run of the client', async () => {
    const events: LlmAgentEvent[] = [];
    await call(remote, 'count_slowly', { steps: 2 }, { onEvent: (event) => events.push(event) });
    const messages = events.flatMap((event) => (event.type === 'tool_heartbeat' ? [event.progress?.message] : []));
    expect(messages).toEqual(['50% step 1', '100% step 2']);
  });

  it('cancels the call on the wuwe server at the client deadline', async () => {
    const hurried = await McpToolProvider.connect({ server: { transport: 'http', url: http.url }, timeoutMs: 300 });
    try {
      const result = await call(hurried, 'wait_for_cancel', {});
      expect(result.outcome.error?.code).toBe('timeout');
      for (let wait = 0; wait < 50 && aborted.length === 0; wait++)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(aborted).toEqual(['wait_for_cancel']);
    } finally {
      await hurried.close();
    }
  });
});
