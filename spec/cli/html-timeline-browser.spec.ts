import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import puppeteer, { Browser } from 'puppeteer-core';
import { RunEventJournal } from '../../lib/runner';
import { SqliteRunStore } from '../../lib/durable/sqlite';
import { TIMELINE_LANES } from '../../lib/cli/timeline-model';
import { main as tour, scriptedTourModel } from '../../samples/06-agent-tour/main';
import { settingsBackend } from '../../samples/06-agent-tour/tour-tools';
import { makeTempDir } from '../durable/temp-dir';
import { runCli } from './cli-harness';
import { decodePng, pixelAt } from './png-pixels';

/** Debian's chromium package (`.ci/run` installs it); WUWE_CHROMIUM names another binary. */
const CHROMIUM = process.env.WUWE_CHROMIUM ?? '/usr/bin/chromium';
const VIEWPORT = { width: 1280, height: 800 };

/** What the page reports of one lane kind: every lane's text, and the first mark's box and color. */
interface LaneInPage {
  readonly name: string;
  readonly texts: string[];
  readonly box?: { x: number; y: number; width: number; height: number };
  readonly color: string;
}

/** Runs in the page (a string: the specs compile without the DOM library). */
const LANES_IN_PAGE = (names: readonly string[]): string => `(${JSON.stringify(names)}).map((name) => {
  const lanes = [...document.querySelectorAll('[data-lane="' + name + '"]')];
  const mark = lanes[0] && lanes[0].querySelector('.mark');
  const box = mark ? mark.getBoundingClientRect() : undefined;
  return {
    name,
    texts: lanes.map((lane) => lane.querySelector('.lane-text').textContent),
    box: box && { x: box.x + window.scrollX, y: box.y + window.scrollY, width: box.width, height: box.height },
    color: mark ? getComputedStyle(mark).backgroundColor : '',
  };
})`;

describe('the HTML timeline in headless Chromium', () => {
  const dir = makeTempDir('timeline');
  let browser: Browser;
  let htmlFile: string;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM))
      throw new Error(`no Chromium at ${CHROMIUM}: apt-get install -y chromium (or set WUWE_CHROMIUM)`);
    settingsBackend.attempts = 0;
    const dbPath = join(dir.path, 'runs.db');
    const journal = new RunEventJournal({ file: join(dir.path, 'events.jsonl') });
    const store = new SqliteRunStore(dbPath);
    const { result } = await tour({
      model: scriptedTourModel(),
      print: () => undefined,
      store,
      onEvent: journal.onEvent,
    });
    await store.close();
    // build_report ignores its deadline: its late result arrives after the timeout.
    for (
      let wait = 0;
      wait < 150 && !journal.entries.some((entry) => entry.event.type === 'tool_late_result_discarded');
      wait++
    )
      await new Promise((resolve) => setTimeout(resolve, 20));
    const exported = await runCli(
      ['export', result.runId, '--store', `sqlite:${dbPath}`, '--html', 'run.html', '--events', 'events.jsonl'],
      dir.path,
    );
    expect(exported).toMatchObject({ code: 0 });
    htmlFile = join(dir.path, 'run.html');
    browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
      defaultViewport: { ...VIEWPORT, deviceScaleFactor: 1 },
    });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    dir.cleanup();
  });

  it('renders without console errors or network requests, and its screenshot shows every lane', async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    const requests: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warn')
        problems.push(`${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`pageerror: ${String(error)}`));
    page.on('request', (request) => requests.push(request.url()));
    const url = pathToFileURL(htmlFile).href;
    await page.goto(url, { waitUntil: 'load' });

    // The full admitted outcome behind a truncation opens from its link (before measuring: it moves what follows).
    const truncated = await page.$eval('[data-lane="truncation"] a', (link) => link.getAttribute('href')!);
    await page.click('[data-lane="truncation"] a');
    expect(
      await page.evaluate(
        `(() => { const pre = document.querySelector(${JSON.stringify(truncated)}); return pre.closest('details').open ? pre.textContent.length : 0; })()`,
      ),
    ).toBeGreaterThan(4096);

    // Every lane is in the DOM with a visible mark and its text.
    const lanes = (await page.evaluate(LANES_IN_PAGE(TIMELINE_LANES))) as LaneInPage[];
    const byName = new Map(lanes.map((lane) => [lane.name, lane]));
    const texts = (name: string): string => byName.get(name)!.texts.join('\n');
    expect(texts('attempts')).toMatch(/attempt 1: [a-z_]+; attempt 2: ok/);
    expect(texts('backoff')).toMatch(/retry after \d+ ms \(attempt 1 failed/);
    expect(texts('heartbeats')).toMatch(/\d+%/);
    expect(texts('timeouts')).toMatch(/deadline of 300 ms passed/);
    expect(await page.$eval('[data-lane="timeouts"] .mark-late', (mark) => mark.getAttribute('title'))).toMatch(
      /late result discarded \(ok\)/,
    );
    expect(texts('approval')).toMatch(/denied by demo policy at \d{4}-\d\d-\d\dT/);
    expect(texts('truncation')).toMatch(/truncated: \d+ -> \d+ bytes.*see the full admitted outcome/);

    const height = (await page.evaluate('document.documentElement.scrollHeight')) as number;
    const png = Buffer.from(await page.screenshot({ type: 'png', fullPage: true }));
    // README's picture: WUWE_TIMELINE_SCREENSHOT=docs/run-timeline.png npx jest spec/cli/html-timeline-browser.spec.ts
    if (process.env.WUWE_TIMELINE_SCREENSHOT !== undefined) writeFileSync(process.env.WUWE_TIMELINE_SCREENSHOT, png);
    const image = decodePng(png);
    expect([image.width, image.height]).toEqual([VIEWPORT.width, height]);
    const colors = new Set<string>();
    for (let index = 0; index < image.rgba.length; index += 4 * 97)
      colors.add(`${image.rgba[index]},${image.rgba[index + 1]},${image.rgba[index + 2]}`);
    expect(colors.size).toBeGreaterThan(10); // not blank

    // The screenshot holds each lane's first mark in the lane's own color.
    for (const lane of lanes) {
      expect(lane.box).toBeDefined();
      const { x, y, width, height: markHeight } = lane.box!;
      expect(width).toBeGreaterThan(0);
      const seen = pixelAt(image, x + width / 2, y + markHeight / 2);
      const expected =
        lane.name === 'backoff'
          ? [
              [0xf0, 0xad, 0x4e],
              [0xfb, 0xe3, 0xbd],
            ]
          : [lane.color.match(/\d+/g)!.map(Number)];
      const close = expected.some((color) => color.every((channel, index) => Math.abs(channel - seen[index]) <= 24));
      expect({ lane: lane.name, seen, close }).toEqual({ lane: lane.name, seen, close: true });
    }
    expect(problems).toEqual([]);
    expect(requests).toEqual([url]);
    expect(readFileSync(htmlFile, 'utf8')).not.toMatch(/<script|<link|src=|https?:\/\//i);
  }, 120_000);
});
