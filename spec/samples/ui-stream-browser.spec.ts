import { randomBytes } from 'node:crypto';
import { buildRunner, executions } from '../../samples/08-ui-stream/agent';
import { ChatServer, startChatServer } from '../../samples/08-ui-stream/server';
import {
  ANSWER,
  count,
  describeInBrowser,
  REFUNDED,
  RESUME_URL,
  SHOWN,
  Shown,
  showsLine,
  until,
  useChatPage,
} from './chat-page';

describeInBrowser('the UI stream sample page in headless Chromium', () => {
  const chat = useChatPage();
  let server: ChatServer | undefined;
  let problems: string[];

  beforeEach(() => {
    problems = [];
    chat.page.on('pageerror', (error) => problems.push(`pageerror: ${String(error)}`));
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  /** Opens the page, sends the prompt and waits for the approval request; answers the refunds made before. */
  async function untilApprovalRequested(runner?: ReturnType<typeof buildRunner>): Promise<number> {
    server = await startChatServer({
      pageScript: chat.pageScript,
      secret: randomBytes(32).toString('hex'),
      ...(runner === undefined ? {} : { runner }),
    });
    await chat.page.goto(server.url, { waitUntil: 'load' });
    const before = executions.refund;
    await chat.page.click('#send');
    await chat.page.waitForSelector('button.approve', { timeout: 20_000 });
    expect(await chat.page.evaluate(SHOWN)).toMatchObject({ status: 'ready' });
    expect(count((await chat.page.evaluate(SHOWN)) as Shown, 'RefundOrder {"orderId":"A-1","amountCents":2500}')).toBe(
      1,
    );
    expect(executions.refund).toBe(before);
    return before;
  }

  it('shows the approval request; approving on the page runs the refund once and shows the answer', async () => {
    const before = await untilApprovalRequested();
    await chat.page.click('button.approve');
    await showsLine(chat.page, ANSWER, 'ready');
    expect(executions.refund).toBe(before + 1);
    const shown = (await chat.page.evaluate(SHOWN)) as Shown;
    expect(shown.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(count(shown, ANSWER)).toBe(1);
    expect(count(shown, 'RefundOrder')).toBe(1);
    expect(count(shown, REFUNDED)).toBe(1);
    expect(await chat.page.$('button.approve')).toBeNull();
    expect(problems).toEqual([]);
  }, 60_000);

  it('a page reloaded mid-run resumes the stream: every part once, the refund run once', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const before = await untilApprovalRequested(buildRunner({ beforeAnswer: () => held }));
    await chat.page.click('button.approve');
    // The refund ran and its output is shown; the model's answer is held: the run is mid-stream.
    await showsLine(chat.page, REFUNDED, 'streaming');
    await until(() => executions.refund === before + 1, 'the refund');

    const resumed = chat.page.waitForResponse((response) => RESUME_URL.test(response.url()), {
      timeout: 20_000,
    });
    await chat.page.reload({ waitUntil: 'load' });
    expect((await resumed).status()).toBe(200);
    // The replayed message is shown before the answer comes.
    await showsLine(chat.page, REFUNDED, 'streaming');
    expect(count((await chat.page.evaluate(SHOWN)) as Shown, ANSWER)).toBe(0);
    release();

    await showsLine(chat.page, ANSWER, 'ready');
    const shown = (await chat.page.evaluate(SHOWN)) as Shown;
    expect(shown.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(count(shown, ANSWER)).toBe(1);
    expect(count(shown, 'Looking up order A-1.')).toBe(1);
    expect(count(shown, 'LookupOrder')).toBe(1);
    expect(count(shown, 'RefundOrder')).toBe(1);
    expect(count(shown, REFUNDED)).toBe(1);
    expect(executions.refund).toBe(before + 1);
    expect(problems).toEqual([]);

    // Reloaded again once the run ended: nothing is in progress, the page shows the same chat and asks for nothing.
    const requests: string[] = [];
    chat.page.on('request', (request) => requests.push(request.url()));
    await chat.page.reload({ waitUntil: 'load' });
    await showsLine(chat.page, ANSWER, 'ready');
    expect((await chat.page.evaluate(SHOWN)) as Shown).toEqual(shown);
    expect(requests.filter((url) => url.includes('/api/'))).toEqual([]);
  }, 60_000);
});
