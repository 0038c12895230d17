import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResult, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { McpHttpHandler, McpToolServer, mcpToolAnnotations } from '../../lib/mcp';
import { descriptorFromLlmTool } from '../../lib/contract/compile-descriptor';
import { aborted, Echo, provider } from './fixtures/served-tools';
import { composeToolProviders, ReflectedToolProvider } from '../../lib';
import { connectHttp, connectWuweMcpOverStdio, listenHttp, sdkClient } from './mcp-support';

function textOf(result: CallToolResult): string {
  const first = result.content[0];
  if (first?.type !== 'text') throw new Error('expected a text block');
  return first.text;
}

describe('mcpToolAnnotations', () => {
  const tool = { name: 't', description: 'd', inputSchema: { type: 'object' } };
  it('derives the hints from the contract', () => {
    expect(mcpToolAnnotations(descriptorFromLlmTool(tool, { sideEffect: 'read', idempotency: 'idempotent' }))).toEqual({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    });
    expect(
      mcpToolAnnotations(
        descriptorFromLlmTool(tool, { sideEffect: 'write', idempotency: 'idempotent_with_key' }),
        false,
      ),
    ).toEqual({ readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false });
    expect(
      mcpToolAnnotations(
        descriptorFromLlmTool(tool, { sideEffect: 'destructive', metadata: { openWorld: false } }),
        true,
      ),
    ).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false });
    expect(
      mcpToolAnnotations(descriptorFromLlmTool(tool), (descriptor) => descriptor.name === 'other').openWorldHint,
    ).toBe(false);
  });
});

describe('wuwe-mcp over stdio (a child process)', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connectWuweMcpOverStdio(sdkClient());
  }, 120000);
  afterAll(() => client.close());

  it('lists the tools with input and output schemas and annotations from the contracts', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'Echo',
      'add',
      'count_slowly',
      'delete_item',
      'lookup',
      'wait_for_cancel',
    ]);
    const add = tools.find((tool) => tool.name === 'add')!;
    expect(add.inputSchema).toMatchObject({
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
    });
    expect(add.outputSchema).toMatchObject({ type: 'object', required: ['sum'] });
    expect(add.annotations).toEqual({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    });
    expect(tools.find((tool) => tool.name === 'delete_item')!.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
    });
    expect(tools.find((tool) => tool.name === 'Echo')!.inputSchema).toMatchObject({
      properties: { text: { type: 'string' } },
    });
  });

  it('answers a success with structuredContent and its JSON text', async () => {
    const result = (await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ sum: 5 });
    expect(textOf(result)).toBe('{"sum":5}');
    expect(textOf((await client.callTool({ name: 'Echo', arguments: { text: 'hi' } })) as CallToolResult)).toBe('hi');
  });

  it('answers a failure with isError and the ok:false object', async () => {
    const result = (await client.callTool({ name: 'lookup', arguments: {} })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual({
      ok: false,
      error: { code: 'not_found', category: 'not_found', message: 'no such record', retryable: false },
    });
    expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
  });

  it('validates arguments on the server: bad input runs nothing and lists the issues', async () => {
    const result = (await client.callTool({ name: 'add', arguments: { a: 'two' } })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined(); // `add` has an outputSchema the failure would not match
    const failure = JSON.parse(textOf(result));
    expect(failure.error.code).toBe('invalid_arguments');
    expect(JSON.stringify(failure.error.details)).toContain('/a');
  });

  it('turns heartbeats into progress notifications', async () => {
    const progress: { progress: number; message?: string }[] = [];
    const result = (await client.callTool({ name: 'count_slowly', arguments: { steps: 3 } }, undefined, {
      onprogress: (update) => progress.push(update),
    })) as CallToolResult;
    expect(textOf(result)).toBe('counted to 3');
    expect(progress.map((update) => update.progress)).toEqual([1, 2, 3]);
    expect(progress[2].message).toBe('100% step 3');
  });

  it('denies a destructive call when the client cannot be asked (no elicitation): fail closed', async () => {
    const result = (await client.callTool({ name: 'delete_item', arguments: { id: 'x' } })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(JSON.parse(textOf(result)).error.code).toBe('approval_denied');
  });
});

describe('approval by elicitation', () => {
  let answer: ElicitResult = { action: 'cancel' };
  const asked: string[] = [];
  let client: Client;
  beforeAll(async () => {
    client = await connectWuweMcpOverStdio(
      sdkClient(() => {
        asked.push('asked');
        return answer;
      }),
    );
  }, 120000);
  afterAll(() => client.close());

  it.each([
    ['accept', { action: 'accept' as const, content: { approve: true } }, 'deleted x'],
    ['decline', { action: 'decline' as const }, 'approval_denied'],
    ['accept without approve', { action: 'accept' as const, content: { approve: false } }, 'approval_denied'],
  ])('asks the client and follows its answer (%s)', async (_name, given, expected) => {
    answer = given;
    asked.length = 0;
    const result = (await client.callTool({ name: 'delete_item', arguments: { id: 'x' } })) as CallToolResult;
    expect(textOf(result)).toContain(expected);
    expect(asked).toEqual(['asked']);
    // A read-only tool is never put to the user.
    await client.callTool({ name: 'add', arguments: { a: 1, b: 1 } });
    expect(asked).toEqual(['asked']);
  });
});

describe('McpHttpHandler (Streamable HTTP)', () => {
  const handler = new McpHttpHandler(composeToolProviders(provider, new ReflectedToolProvider([Echo])), {
    openWorld: false,
  });
  let http: Awaited<ReturnType<typeof listenHttp>>;
  beforeAll(async () => {
    http = await listenHttp(handler);
  });
  afterAll(() => http.close());

  it('serves tools/list and tools/call to the SDK client', async () => {
    const client = await connectHttp(sdkClient(), http.url);
    try {
      const { tools } = await client.listTools();
      expect(tools.find((tool) => tool.name === 'add')!.annotations?.openWorldHint).toBe(false);
      const result = (await client.callTool({ name: 'add', arguments: { a: 20, b: 22 } })) as CallToolResult;
      expect(result.structuredContent).toEqual({ sum: 42 });
      const progress: number[] = [];
      await client.callTool({ name: 'count_slowly', arguments: { steps: 2 } }, undefined, {
        onprogress: (update) => progress.push(update.progress),
      });
      expect(progress).toEqual([1, 2]);
    } finally {
      await client.close();
    }
  });

  it('asks for approval by elicitation over HTTP too', async () => {
    const asked: string[] = [];
    const client = await connectHttp(
      sdkClient(() => {
        asked.push('asked');
        return { action: 'accept', content: { approve: true } };
      }),
      http.url,
    );
    try {
      const result = (await client.callTool({ name: 'delete_item', arguments: { id: 'y' } })) as CallToolResult;
      expect(textOf(result)).toBe('deleted y');
      expect(asked).toEqual(['asked']);
    } finally {
      await client.close();
    }
  });

  it('aborts the call signal on notifications/cancelled', async () => {
    const client = await connectHttp(sdkClient(), http.url);
    try {
      const controller = new AbortController();
      const call = client.callTool({ name: 'wait_for_cancel', arguments: {} }, undefined, {
        signal: controller.signal,
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(aborted).toEqual([]);
      controller.abort('user pressed stop');
      await expect(call).rejects.toThrow();
      for (let wait = 0; wait < 50 && aborted.length === 0; wait++)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(aborted).toEqual(['wait_for_cancel']);
    } finally {
      await client.close();
    }
  });

  it('answers 404 for an unknown session and keeps no session for a refused request', async () => {
    const unknown = await fetch(http.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': 'nope',
      },
      body: '{}',
    });
    expect(unknown.status).toBe(404);
    const before = handler.sessionCount;
    const notInitialize = await fetch(http.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(notInitialize.status).toBe(400);
    expect(handler.sessionCount).toBe(before);
  });
});

describe('McpToolServer', () => {
  it('checks every contract when it is built', () => {
    const bad = {
      listTools: () => [descriptorFromLlmTool({ name: 'x', description: 'x', inputSchema: { type: 'object' } })],
      invoke: () => 'x',
    };
    expect(() => new McpToolServer({ ...bad, listTools: () => [...bad.listTools(), ...bad.listTools()] })).toThrow(
      /twice/,
    );
  });
});
