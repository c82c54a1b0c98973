/// <reference lib="dom" />
/**
 * The console on a phone, in both looks: `burnrate serve` on the demo organisation and a real
 * Chromium at 390 px. Every channel, with the answers of the commands a person types, is shown in
 * the Slack view (the console's HTML) and the Teams view (the cards Teams receives, drawn by
 * Microsoft's card SDK); in each, nothing may run past the screen's edge (no sideways scroll of the
 * page, the stream, a table or a card) and the header may not cover the channel.
 *
 * The screenshots of every channel and view go to test-results/phone/; with UPDATE_SCREENSHOTS=1
 * the run also refreshes the docs' pictures: docs/console-phone.png, docs/console-teams-phone.png
 * and docs/teams-card.png (one card at 360 px).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchBrowser } from '../support/browser.js';
import { CAROL } from '../support/demo-org.js';
import { startServe, type ServeProcess } from '../support/serve-process.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SHOTS = join(ROOT, 'test-results', 'phone');
const WAIT = { timeout: 20_000 };
const PHONE = { width: 390, height: 844 };

/** What a person types on a phone: the answers are message kinds of their own. */
const COMMANDS = ['help', 'spend', 'spend by day', 'top 5', 'waste', 'budget', 'recommend', 'whoami'];

describe.skipIf(!hasChromium)('the console on a phone, Slack and Teams views', () => {
  let serve: ServeProcess;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  let url: string;
  const problems: string[] = [];

  beforeAll(async () => {
    serve = await startServe();
    url = /console: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(serve.out())?.[1] ?? '';
    browser = await launchBrowser();
    page = await browser.context.newPage();
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
    });
    await page.setViewportSize(PHONE);
    mkdirSync(SHOTS, { recursive: true });
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    expect(await serve?.stop()).toBe(0);
  });

  /** Opens a channel in a view and waits until its stream (and, in the Teams view, every card) is drawn. */
  async function open(channel: string, view: 'slack' | 'teams'): Promise<void> {
    await page.goto(`${url}?${new URLSearchParams({ channel, as: CAROL, ...(view === 'teams' ? { view } : {}) })}`);
    await page.locator('#stream').waitFor(WAIT);
    if (view === 'teams')
      await expect
        .poll(() => page.locator('.ac-card').evaluateAll((cards) => cards.every((c) => c.querySelector('.ac-adaptiveCard') !== null)), WAIT)
        .toBe(true);
  }

  /** Everything that runs wider than its box, by what it is; the header's overlap with the channel. */
  const overflow = () =>
    page.evaluate(() => {
      const wide = (el: Element) => el.scrollWidth > el.clientWidth + 1;
      const found: string[] = [];
      if (document.documentElement.scrollWidth > window.innerWidth) found.push(`page ${document.documentElement.scrollWidth}px`);
      const stream = document.getElementById('stream')!;
      if (wide(stream)) found.push(`stream ${stream.scrollWidth}px`);
      document
        .querySelectorAll('.b-table, .ac-card, .msg-main')
        .forEach((el, i) => wide(el) && found.push(`${el.className} #${i} ${el.scrollWidth}px`));
      for (const el of document.querySelectorAll('.topbar > *, .channel-head, .composer')) {
        const box = el.getBoundingClientRect();
        if (box.right > window.innerWidth + 1 || box.left < -1)
          found.push(`${el.className} runs off screen (${Math.round(box.left)}–${Math.round(box.right)})`);
      }
      const bar = document.querySelector('.topbar')!.getBoundingClientRect();
      const head = document.querySelector('.channel-head')!.getBoundingClientRect();
      if (bar.bottom > head.top + 1) found.push(`header covers the channel by ${Math.round(bar.bottom - head.top)}px`);
      return found;
    });

  it('answers the commands a person types (each answer a message kind of its own)', async () => {
    await open('llm-training', 'slack');
    for (const command of COMMANDS) {
      const answers = await page.locator('#stream > article.msg-private:not(.msg-user)').count();
      await page.fill('#command-text', command);
      await page.press('#command-text', 'Enter');
      // The box empties once the answer is in; the answer is a private message of burnrate's.
      await expect.poll(() => page.inputValue('#command-text'), WAIT).toBe('');
      await expect.poll(() => page.locator('#stream > article.msg-private:not(.msg-user)').count(), WAIT).toBeGreaterThan(answers);
    }
  }, 120_000);

  it('fits every channel in 390 px in both views, and draws every card with the card SDK', async () => {
    const channels = await page.locator('a.channel').evaluateAll((links) => links.map((a) => (a as HTMLElement).dataset.channel!));
    expect(channels).toContain('llm-training');
    const seen = { slack: 0, teams: 0 };
    for (const view of ['slack', 'teams'] as const) {
      for (const channel of channels) {
        await open(channel, view);
        const messages = await page.locator('#stream article').count();
        seen[view] += messages;
        // Each message scrolled into sight in turn: a picture of each, and the checks at each.
        const articles = await page.locator('#stream > article').all();
        for (const [i, article] of articles.entries()) {
          await article.scrollIntoViewIfNeeded();
          expect(await overflow(), `${view} #${channel} message ${i + 1}`).toEqual([]);
        }
        await page.screenshot({ path: join(SHOTS, `${view}-${channel.replace(/[^\w-]/g, '_')}.png`) });
      }
    }
    // Both views show the same messages.
    expect(seen.teams).toBe(seen.slack);
    expect(seen.slack).toBeGreaterThan(COMMANDS.length * 2);
    // The Teams view draws charts through their fallback picture (the SDK knows no Chart.*), never a blank.
    await open('llm-training', 'teams');
    expect(await page.locator('.ac-card img[src^="data:image/png;base64,"]').count()).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  }, 300_000);

  it('toggles between the views in place, and a card button acts like a Slack one', async () => {
    await open('llm-training', 'slack');
    await page.getByRole('button', { name: 'Teams', exact: true }).click();
    await page.locator('.ac-card .ac-adaptiveCard').first().waitFor(WAIT);
    expect(page.url()).toContain('view=teams');
    expect(await page.locator('.views button[aria-pressed="true"]').textContent()).toBe('Teams');
    // Show breakdown on the budget alert's card: the answer arrives in its thread, as from Slack.
    const alert = page
      .locator('#stream > article', { hasText: 'LLM Training' })
      .filter({ has: page.locator('.ac-card') })
      .first();
    const replies = await alert.locator('.thread article').count();
    await alert.getByRole('button', { name: 'Show breakdown' }).first().click();
    await expect.poll(() => alert.locator('.thread article').count(), WAIT).toBeGreaterThan(replies);
    await page.getByRole('button', { name: 'Slack', exact: true }).click();
    await page.locator('#stream .msg-content').first().waitFor(WAIT);
    expect(problems).toEqual([]);

    if (process.env.UPDATE_SCREENSHOTS === '1') {
      await open('llm-training', 'slack');
      await page.locator('#stream > article', { hasText: 'LLM Training' }).first().scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(ROOT, 'docs', 'console-phone.png') });
      await open('llm-training', 'teams');
      const card = page.locator('#stream > article .ac-card').first();
      await card.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(ROOT, 'docs', 'console-teams-phone.png') });
      await page.setViewportSize({ width: 360, height: 844 });
      await card.screenshot({ path: join(ROOT, 'docs', 'teams-card.png') });
      await page.setViewportSize(PHONE);
    }
  }, 120_000);
});
