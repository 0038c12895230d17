import { MessagesApiServer, startMessagesApiServer } from './messages-api-server';
import { OpenAIApiServer, startOpenAIApiServer } from './openai-api-server';

/** The loopback stand-ins of the OpenAI and Anthropic APIs a spec file talks to through the real SDKs. */
export interface LocalModelServers {
  readonly openai: OpenAIApiServer;
  readonly anthropic: MessagesApiServer;
}

/**
 * Starts both local model servers before the file's tests and closes them after; read them from the result inside
 * tests.
 */
export function useLocalModelServers(): LocalModelServers {
  let openai: OpenAIApiServer | undefined;
  let anthropic: MessagesApiServer | undefined;
  beforeAll(async () => {
    openai = await startOpenAIApiServer();
    anthropic = await startMessagesApiServer();
  });
  afterAll(async () => {
    await openai?.close();
    await anthropic?.close();
  });
  return {
    get openai() {
      if (openai === undefined) throw new Error('the OpenAI stand-in is started in beforeAll');
      return openai;
    },
    get anthropic() {
      if (anthropic === undefined) throw new Error('the Messages API stand-in is started in beforeAll');
      return anthropic;
    },
  };
}
