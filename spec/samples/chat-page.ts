/** What the UI stream sample's browser specs share: the browser, and what the chat page shows. */
import { existsSync } from 'node:fs';
import puppeteer, { Browser, Page } from 'puppeteer-core';
import { bundlePage } from '../../samples/08-ui-stream/bundle';

/** Debian's chromium package (`.ci/run` installs it); WUWE_CHROMIUM names another binary. */
export const CHROMIUM = process.env.WUWE_CHROMIUM ?? '/usr/bin/chromium';
/** Without a browser a spec is skipped locally; on CI (`CI` set) it runs and fails without one. */
export const describeInBrowser = existsSync(CHROMIUM) || process.env.CI !== undefined ? describe : describe.skip;

/** The agent's final answer. */
export const ANSWER = 'Refunded order A-1 (25.00).';
/** The line of the refund's output. */
export const REFUNDED = 'output-available -> order A-1 refunded';
/** The route of the AI SDK's resume (`GET <api>/<chatId>/stream`). */
export const RESUME_URL = /\/api\/chat\/([^/]+)\/stream$/;

/** What the page shows: each message's role and lines, and the chat's status. */
export interface Shown {
  readonly status: string;
  readonly messages: { role: string; lines: string[] }[];
}

/** Runs in the page (a string: the specs compile without the DOM library). */
export const SHOWN = `(() => ({
  status: document.getElementById('status').textContent,
  messages: [...document.querySelectorAll('#messages .message')].map((message) => ({
    role: message.className.replace('message ', ''),
    lines: [...message.querySelectorAll('p')].map((line) => line.textContent),
  })),
}))()`;

/** What `page` shows now. */
export const shownOn = async (page: Page): Promise<Shown> => (await page.evaluate(SHOWN)) as Shown;

/** Launches headless Chromium; throws when there is none. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`no Chromium at ${CHROMIUM}: apt-get install -y chromium (or set WUWE_CHROMIUM)`);
  return puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
}

/** What {@link useChatPage} holds for a spec file's tests. */
export interface ChatPage {
  /** The page's script (the `ai` package's `Chat` bundled with esbuild), bundled once for the file. */
  pageScript: string;
  /** A fresh browser page for the running test. */
  page: Page;
}

/** For a spec file: the page's script bundled and Chromium launched once (closed after the file), a page per test. */
export function useChatPage(): ChatPage {
  const held = {} as ChatPage;
  let browser: Browser | undefined;
  beforeAll(async () => {
    held.pageScript = await bundlePage();
    browser = await launchChromium();
  }, 120_000);
  afterAll(() => browser?.close());
  beforeEach(async () => {
    held.page = await browser!.newPage();
  });
  afterEach(() => held.page?.close());
  return held;
}

/** Waits until the page shows a line containing `text` (and, when given, the chat has `status`). */
export function showsLine(page: Page, text: string, status?: string): Promise<unknown> {
  const lines = `[...document.querySelectorAll('#messages p')].map((line) => line.textContent)`;
  const statusHolds =
    status === undefined ? 'true' : `document.getElementById('status').textContent === ${JSON.stringify(status)}`;
  return page.waitForFunction(`${lines}.some((line) => line.includes(${JSON.stringify(text)})) && ${statusHolds}`, {
    timeout: 30_000,
  });
}

/** How many lines of all messages contain `text`. */
export const count = (shown: Shown, text: string): number =>
  shown.messages.flatMap((message) => message.lines).filter((line) => line.includes(text)).length;

/** Waits (polling, up to 10 s) until `condition` holds. */
export async function until(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 10) {
    if (waited > 10_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
