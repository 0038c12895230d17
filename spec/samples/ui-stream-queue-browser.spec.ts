import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { queuedRuns } from '../../samples/08-ui-stream/run-drivers';
import { ChatServer, startChatServer } from '../../samples/08-ui-stream/server';
import { useQueueFixtures } from '../queue/queue-fixture';
import { spawnWorker, WorkerProcess } from '../queue/worker-processes';
import { ANSWER, count, describeInBrowser, REFUNDED, RESUME_URL, shownOn, showsLine, useChatPage } from './chat-page';

const fixture = useQueueFixtures();

/** One server-sent event of a UI message stream. */
interface SseEvent {
  readonly id?: string;
  readonly data: string;
}

/** Parses the complete events of `text` (the rest stays for the next read). */
function takeEvents(text: string): { events: SseEvent[]; rest: string } {
  const blocks = text.split('\n\n');
  const rest = blocks.pop() ?? '';
  const events = blocks.map((block) => {
    const lines = block.split('\n');
    const id = lines.find((line) => line.startsWith('id: '))?.slice(4);
    return { ...(id === undefined ? {} : { id }), data: lines.find((line) => line.startsWith('data: '))!.slice(6) };
  });
  return { events, rest };
}

/**
 * Reads the resume route of `chatId` (with `Last-Event-ID` when given) until `enough` holds for the events read
 * (then drops the connection) or the stream ends.
 */
async function readResumed(
  url: string,
  chatId: string,
  lastEventId: string | undefined,
  enough: (events: readonly SseEvent[]) => boolean = () => false,
): Promise<{ status: number; events: SseEvent[] }> {
  const aborting = new AbortController();
  const response = await fetch(`${url}/api/chat/${encodeURIComponent(chatId)}/stream`, {
    headers: lastEventId === undefined ? {} : { 'last-event-id': lastEventId },
    signal: aborting.signal,
  });
  const events: SseEvent[] = [];
  if (response.body === null) return { status: response.status, events };
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    const taken = takeEvents(text + decoder.decode(next.value, { stream: true }));
    text = taken.rest;
    events.push(...taken.events);
    if (enough(events)) {
      aborting.abort();
      break;
    }
  }
  return { status: response.status, events };
}

describeInBrowser('the UI stream sample page on a queue worker process (PostgreSQL, headless Chromium)', () => {
  const chat = useChatPage();
  let server: ChatServer | undefined;
  let worker: WorkerProcess | undefined;
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'wuwe-ui-queue-'));
  });
  afterEach(async () => {
    await server?.close();
    if (worker !== undefined && worker.child.exitCode === null) worker.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('streams a queued run to the page: approved on the page, the refund once, a reload and Last-Event-ID reconnects mid-run', async () => {
    const f = await fixture();
    const hold = join(dir, 'answer-now');
    worker = spawnWorker(f.workerConfig(), { WUWE_SAMPLE_HOLD_FILE: hold }, '../samples/ui-stream-worker-process.ts');
    await worker.ready;
    expect(worker.isReady()).toBe(true);
    // The web process runs no agent: it enqueues, decides approvals and follows the worker's kept events.
    server = await startChatServer({
      pageScript: chat.pageScript,
      secret: randomBytes(32).toString('hex'),
      store: f.store,
      runs: queuedRuns(f.queue),
    });
    const problems: string[] = [];
    chat.page.on('pageerror', (error) => problems.push(String(error)));
    await chat.page.goto(server.url, { waitUntil: 'load' });
    await chat.page.click('#send');
    await chat.page.waitForSelector('button.approve', { timeout: 30_000 });
    expect(count(await shownOn(chat.page), 'RefundOrder {"orderId":"A-1","amountCents":2500}')).toBe(1);

    await chat.page.click('button.approve');
    await showsLine(chat.page, REFUNDED, 'streaming');
    const resumed = chat.page.waitForResponse((response) => RESUME_URL.test(response.url()), { timeout: 30_000 });
    await chat.page.reload({ waitUntil: 'load' });
    const chatId = RESUME_URL.exec((await resumed).url())![1];
    expect((await resumed).status()).toBe(200);
    await showsLine(chat.page, REFUNDED, 'streaming');
    expect(count(await shownOn(chat.page), ANSWER)).toBe(0);

    // A client that drops its connection, in the stream that asked for approval and again in the resumed one,
    // reconnects each time with the last id it got.
    const output = (callId: string) => (events: readonly SseEvent[]) =>
      events.some((event) => event.data.startsWith(`{"type":"tool-output-available","toolCallId":"${callId}"`));
    const dropped = await readResumed(server.url, chatId, undefined, output('lookup'));
    expect(dropped.events.some((event) => event.data.includes('"finish"'))).toBe(false);
    const droppedAgain = await readResumed(server.url, chatId, dropped.events.at(-1)!.id, output('refund'));
    expect(droppedAgain.status).toBe(200);
    const reconnected = readResumed(server.url, chatId, droppedAgain.events.at(-1)!.id);
    writeFileSync(hold, '');
    const rest = await reconnected;
    expect(rest.status).toBe(200);

    await showsLine(chat.page, ANSWER, 'ready');
    const shown = await shownOn(chat.page);
    expect(shown.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(count(shown, ANSWER)).toBe(1);
    expect(count(shown, REFUNDED)).toBe(1);
    expect(count(shown, 'RefundOrder')).toBe(1);
    expect(problems).toEqual([]);

    // The dropped and the reconnected reads together are the whole message, each event once, in order.
    const whole = await readResumed(server.url, chatId, undefined);
    expect([...dropped.events, ...droppedAgain.events, ...rest.events]).toEqual(whole.events);
    const deltas = rest.events.map(
      (event) => JSON.parse(event.data === '[DONE]' ? '{}' : event.data) as { delta?: string },
    );
    expect(deltas.map((chunk) => chunk.delta ?? '').join('')).toBe(ANSWER);
    // The run ended and that client has all of it: nothing more to follow.
    expect((await readResumed(server.url, chatId, whole.events.at(-2)!.id)).status).toBe(204);

    worker.child.kill('SIGTERM');
    const exited = await worker.exited;
    expect(exited.code).toBe(0);
    expect(exited.stdout).toContain('executions {"lookup":1,"refund":1}');
    expect(await f.store.loadRun(server.chats.runOf(chatId)!.runId)).toMatchObject({ status: 'completed' });
  }, 150_000);
});
