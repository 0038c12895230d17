import OpenAI from 'openai';
import { Field, Tool } from '../../../lib';
import { OpenAIModelClient } from '../../../lib/model/openai';
import { chatReply, responsesReply, ScriptedAnswer } from '../../support/openai-api-fixtures';
import { OpenAIApiServer, ScriptedReply, startOpenAIApiServer } from '../../support/openai-api-server';

class Address {
  @Field() street!: string;
  @Field({ optional: true }) zip?: string;
}

const booked: unknown[] = [];

@Tool({ description: 'Book a table.' })
class BookTable {
  @Field() city!: string;
  @Field({ optional: true }) note?: string;
  @Field({ optional: true, type: () => Address }) address?: Address;
  invoke(): string {
    booked.push({
      city: this.city,
      note: this.note,
      address: this.address === undefined ? undefined : { ...this.address },
    });
    return `booked in ${this.city}`;
  }
}

type Api = 'chat' | 'responses';
const reply = (api: Api, answer: ScriptedAnswer): ScriptedReply =>
  api === 'chat' ? chatReply(answer) : responsesReply(answer);
const call = (id: string, args: string) => ({ id, name: 'BookTable', pieces: [args] });

describe.each<Api>(['chat', 'responses'])('OpenAIModelClient through the runner (%s)', (api) => {
  let server: OpenAIApiServer;

  beforeEach(async () => {
    booked.length = 0;
    server = await startOpenAIApiServer();
  });

  afterEach(async () => {
    await server.close();
  });

  function client(strict: boolean): OpenAIModelClient {
    return new OpenAIModelClient({
      client: new OpenAI({ apiKey: 'test-key', baseURL: server.baseURL, maxRetries: 0 }),
      api,
      strict,
    });
  }

  it('strict: sends the strict schema; a null for an optional field is absent, a null for a required field is refused', async () => {
    server.enqueue(
      reply(api, {
        calls: [
          call('call_0', '{"city":"Oslo","note":null,"address":{"street":"Main","zip":null}}'),
          call('call_1', '{"city":null,"note":"x","address":null}'),
        ],
      }),
      reply(api, { text: ['Booked.'] }),
    );
    const result = await client(true).bindTools(BookTable).complete('Book in Oslo.');

    const tool = api === 'chat' ? server.requests[0].body.tools[0].function : server.requests[0].body.tools[0];
    expect(tool.strict).toBe(true);
    expect(tool.parameters.required).toEqual(['city', 'note', 'address']);
    expect(tool.parameters.properties.note).toEqual({ type: ['string', 'null'] });
    expect(tool.parameters.properties.address.required).toEqual(['street', 'zip']);

    expect(booked).toEqual([{ city: 'Oslo', note: undefined, address: { street: 'Main' } }]);
    expect(result.toolCalls[0].arguments).toEqual({ city: 'Oslo', address: { street: 'Main' } });
    expect(result.toolCalls[0].outcome.ok).toBe(true);
    const refused = result.toolCalls[1].outcome;
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.error.code).toBe('invalid_arguments');
    expect(!refused.ok && JSON.stringify(refused.error.details)).toContain('/city');
    expect(result.text).toBe('Booked.');
  });

  it('not strict: a null for an optional field is still refused by validation', async () => {
    server.enqueue(
      reply(api, { calls: [call('call_0', '{"city":"Oslo","note":null}')] }),
      reply(api, { text: ['Sorry.'] }),
    );
    const result = await client(false).bindTools(BookTable).complete('Book in Oslo.');
    const tool = api === 'chat' ? server.requests[0].body.tools[0].function : server.requests[0].body.tools[0];
    expect(tool.strict).toBe(api === 'chat' ? undefined : false);
    expect(tool.parameters.required).toEqual(['city']);
    expect(booked).toEqual([]);
    const outcome = result.toolCalls[0].outcome;
    expect(!outcome.ok && outcome.error.code).toBe('invalid_arguments');
  });

  it('runs parallel tool calls and answers each by its id, in order', async () => {
    server.enqueue(
      reply(api, { calls: [call('call_0', '{"city":"Oslo"}'), call('call_1', '{"city":"Rome"}')] }),
      reply(api, { text: ['Both.'] }),
    );
    const result = await client(false).bindTools(BookTable).complete('Book in Oslo and Rome.');
    expect(booked).toEqual([
      { city: 'Oslo', note: undefined, address: undefined },
      { city: 'Rome', note: undefined, address: undefined },
    ]);
    const second = server.requests[1].body;
    const answers =
      api === 'chat'
        ? second.messages
            .filter((message: any) => message.role === 'tool')
            .map((message: any) => [message.tool_call_id, message.content])
        : second.input
            .filter((item: any) => item.type === 'function_call_output')
            .map((item: any) => [item.call_id, item.output]);
    expect(answers.map(([id]: [string]) => id)).toEqual(['call_0', 'call_1']);
    expect(answers.map(([, content]: [string, string]) => content).join(' ')).toMatch(/Oslo.*Rome/);
    expect(result.text).toBe('Both.');
  });

  it('runs call_0 of every turn: a reused id is a new call in a new turn (run without a store)', async () => {
    server.enqueue(
      reply(api, { calls: [call('call_0', '{"city":"Oslo"}')] }),
      reply(api, { calls: [call('call_0', '{"city":"Rome"}')] }),
      reply(api, { text: ['Done.'] }),
    );
    const result = await client(false).bindTools(BookTable).complete('Book in Oslo, then in Rome.');
    expect(booked.map((entry) => (entry as { city: string }).city)).toEqual(['Oslo', 'Rome']);
    expect(result.toolCalls.map((entry) => [entry.callId, entry.outcome.ok])).toEqual([
      ['call_0', true],
      ['call_0', true],
    ]);
    expect(result.text).toBe('Done.');
  });

  it('never runs a tool call of an answer cut at the token limit: incomplete_tool_call', async () => {
    const cut: ScriptedAnswer =
      api === 'chat'
        ? { calls: [call('call_0', '{"city":"Oslo"}')], finish: 'length' }
        : { calls: [call('call_0', '{"city":"Oslo"}')], status: 'incomplete', incompleteReason: 'max_output_tokens' };
    server.enqueue(reply(api, cut), reply(api, { text: ['Shorter now.'] }));
    const result = await client(false).bindTools(BookTable).complete('Book in Oslo.');
    expect(booked).toEqual([]);
    const outcome = result.toolCalls[0].outcome;
    expect(!outcome.ok && outcome.error.code).toBe('incomplete_tool_call');
  });

  it('a refusal ends the run with stop reason refusal and its message', async () => {
    server.enqueue(reply(api, { refusal: ['I cannot book that.'] }));
    const result = await client(false).bindTools(BookTable).complete('Book something bad.');
    expect(result.stopReason).toBe('refusal');
    expect(result.text).toBe('I cannot book that.');
  });
});

describe('OpenAIModelClient through the runner (responses only)', () => {
  let server: OpenAIApiServer;

  beforeEach(async () => {
    booked.length = 0;
    server = await startOpenAIApiServer();
  });

  afterEach(async () => {
    await server.close();
  });

  it('sends Responses reasoning items back with their turn, through the runner', async () => {
    server.enqueue(
      responsesReply({ reasoning: { id: 'rs_1', encrypted: 'opaque==' }, calls: [call('call_0', '{"city":"Oslo"}')] }),
      responsesReply({ text: ['Booked.'] }),
    );
    const result = await new OpenAIModelClient({
      client: new OpenAI({ apiKey: 'test-key', baseURL: server.baseURL, maxRetries: 0 }),
      api: 'responses',
    })
      .bindTools(BookTable)
      .complete('Book in Oslo.');
    expect(result.text).toBe('Booked.');
    const input = server.requests[1].body.input;
    expect(input.map((item: any) => item.type ?? item.role)).toEqual([
      'user',
      'reasoning',
      'function_call',
      'function_call_output',
    ]);
    expect(input[1]).toEqual({ type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'opaque==' });
  });
});
