/// <reference lib="dom" />
/**
 * The console as a person uses it: `burnrate serve` on the demo organisation, a real Chromium,
 * clicks and typing. Every step goes through the page's own script, the HTTP routes, the one
 * dispatcher and the store, as in production.
 *
 * `test-results/console.png` is kept as an artifact of every run; with UPDATE_SCREENSHOTS=1 the
 * run also refreshes the README's `docs/console.png`.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchBrowser } from '../support/browser.js';
import { startServe, type ServeProcess } from '../support/serve-process.js';
import { ALICE, CAROL, DAN } from '../support/demo-org.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WAIT = { timeout: 15_000 };

describe.skipIf(!hasChromium)('the console in a real browser', () => {
  let serve: ServeProcess;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  let url: string;
  const problems: string[] = [];

  /** The budget alert of llm-training: a top-level message of the stream, with its thread. */
  const alert = (p: Page = page): Locator => p.locator('#stream > article', { hasText: 'LLM Training is on track to spend' });

  async function actAs(user: string, p: Page = page): Promise<void> {
    await p.selectOption('#as', user);
    await p.locator('#status', { hasText: `now acting as ${user}` }).waitFor(WAIT);
    await p.locator(`#stream[data-viewer="${user}"]`).waitFor(WAIT); // the stream re-rendered for them
  }

  /** A page that reports script errors and CSP violations: none are expected. */
  async function openPage(path: string): Promise<Page> {
    const p = await browser.context.newPage();
    p.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    p.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
    });
    await p.goto(`${url}${path}`);
    return p;
  }

  /** The channels whose unread marker shows, in the sidebar's order. */
  const unreadChannels = () =>
    page
      .locator('a.channel')
      .evaluateAll((links) =>
        links.filter((a) => !(a.querySelector('.unread') as HTMLElement).hidden).map((a) => (a as HTMLElement).dataset.channel),
      );

  /** Messages per channel that `user` can see, read from the database the console reads. */
  function visibleCounts(user: string): Map<string, number> {
    const db = new Database(join(serve.cwd, 'data', 'burnrate.db'), { readonly: true });
    const rows = db.prepare('SELECT channel, private_to FROM console_messages').all() as { channel: string; private_to: string | null }[];
    db.close();
    const counts = new Map<string, number>();
    for (const row of rows)
      if (row.private_to === null || row.private_to === user) counts.set(row.channel, (counts.get(row.channel) ?? 0) + 1);
    return counts;
  }

  beforeAll(async () => {
    serve = await startServe();
    url = /console: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(serve.out())?.[1] ?? '';
    browser = await launchBrowser();
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    expect(await serve?.stop()).toBe(0);
    expect(serve.err()).toBe('');
  });

  it('is announced at start on loopback, next to the terminal output', () => {
    expect(url).toBe(`http://127.0.0.1:${serve.port}/`);
    expect(serve.out()).toContain('messages print here and in the console');
  });

  it("opens on the busiest channel as the first team's owner, the other channels marked unread, and shows the demo budget alert in #llm-training", async () => {
    page = await openPage('');
    expect(await page.title()).toBe('burnrate console');
    expect(await page.locator('.sidebar a.channel').allTextContents()).toEqual([
      '#ml-research',
      '#llm-training',
      '#inference',
      '#vision',
      '#_unowned',
      '@Home',
      '@burnrate',
    ]);
    expect(await page.locator('#as').inputValue()).toBe(ALICE);
    // People by name: the picker and the channel's topic name them, with the id beside in the picker.
    expect(await page.locator('#as option:checked').textContent()).toBe('Alice Martin (U0DEMOALICE) — owner of ml-research');
    // The channel with the most messages Alice can see, counted in the database; ties to the one listed first.
    const counts = visibleCounts(ALICE);
    const listed = ['ml-research', 'llm-training', 'inference', 'vision', '_unowned'];
    const busiest = listed.reduce((best, c) => ((counts.get(c) ?? 0) > (counts.get(best) ?? 0) ? c : best));
    expect(await page.locator('#channel-title').textContent()).toBe(`# ${busiest}`);
    // Every other channel holding a message she has not seen is marked from the first load.
    const withMessages = [...listed, '@home', '@dm'].filter((c) => c !== busiest && (counts.get(c) ?? 0) > 0);
    expect(withMessages.length).toBeGreaterThan(2);
    expect(await unreadChannels()).toEqual(withMessages);

    // Opening one clears its marker, and a reload does not bring it back.
    const opened = withMessages[0]!;
    await page.click(`a.channel[data-channel="${opened}"]`);
    await page.locator('#channel-title', { hasText: `# ${opened}` }).waitFor(WAIT);
    await page.locator(`#stream[data-viewer="${ALICE}"] article`).first().waitFor(WAIT);
    expect(await unreadChannels()).toEqual(withMessages.filter((c) => c !== opened));
    await page.goto(url);
    expect(await page.locator('#channel-title').textContent()).toBe(`# ${busiest}`);
    expect(await unreadChannels()).toEqual(withMessages.filter((c) => c !== opened));

    await page.click('a.channel[data-channel="llm-training"]');
    await page.locator('#channel-title', { hasText: '# llm-training' }).waitFor(WAIT);
    await alert().waitFor(WAIT);
    expect(page.url()).toBe(`${url}?channel=llm-training&as=${ALICE}`);
    expect(await alert().textContent()).toContain('$150,000.00');
    expect(await alert().locator('button').allTextContents()).toEqual([
      'Acknowledge',
      'Show breakdown',
      'Details',
      'Snooze 24 h',
      'Snooze 7 days',
      'Snooze to period end',
    ]);

    // Home: the App Home dashboard of the user acted as, by name.
    await page.click('a.channel[data-channel="@home"]');
    await page.locator('#stream', { hasText: 'burnrate — Alice Martin' }).waitFor(WAIT);
    expect(await page.locator('#stream').textContent()).toContain('Open alerts');
    await page.click('a.channel[data-channel="llm-training"]');
    await alert().waitFor(WAIT);
  });

  it('runs `spend` from the command box and shows the answer to the one who asked', async () => {
    await page.fill('#command-text', 'spend');
    await page.press('#command-text', 'Enter');
    const answer = page.locator('#stream > article.msg-private', { hasText: 'Spend of ml-research' });
    await answer.waitFor(WAIT);
    expect(await answer.locator('.private-note').textContent()).toBe('only visible to you');
    expect((await answer.locator('th').allTextContents()).slice(1)).toEqual(['Effective', 'Billed']);
    // Money is right-aligned, in a table, as the renderer marks it.
    // Polled: the stream may re-render the answer (a live update) between finding the cell and reading it.
    await expect
      .poll(() =>
        answer
          .locator('td.num')
          .first()
          .evaluate((td) => getComputedStyle(td).textAlign),
      )
      .toBe('right');
    await page.locator('#stream > article.msg-user', { hasText: '/burnrate spend' }).waitFor(WAIT);
    // The echo of what she typed names her, as everything else in the console does.
    expect(await page.locator('#stream > article.msg-user .msg-author').last().textContent()).toBe('Alice Martin');
    expect(await page.inputValue('#command-text')).toBe('');
  });

  it('acknowledges the alert as the team owner: the message updates, live in other browsers too', async () => {
    // Dan watches the same channel in another tab; he must see the edit without doing anything.
    const watcher = await openPage(`?channel=llm-training&as=${DAN}`);
    await alert(watcher).waitFor(WAIT);

    await actAs(CAROL);
    expect(await page.locator('#stream article', { hasText: 'Spend of ml-research' }).count()).toBe(0); // Alice's answer is hers alone
    // What was read is kept per user: Carol has opened nothing yet, so every other channel with messages is new to her.
    const carols = visibleCounts(CAROL);
    expect(await unreadChannels()).toEqual(
      ['ml-research', 'inference', 'vision', '_unowned', '@home', '@dm'].filter((c) => (carols.get(c) ?? 0) > 0),
    );
    await alert().getByRole('button', { name: 'Acknowledge' }).click();
    // People by name, not by id: the alert says who acknowledged it, and the button is gone.
    await alert().locator('.b-mentions', { hasText: 'by Carol Chen' }).waitFor(WAIT);
    expect(await alert().textContent()).not.toContain(CAROL);
    expect(await alert().getByRole('button', { name: 'Acknowledge' }).count()).toBe(0);
    expect(await alert().locator('.msg-meta .edited').first().textContent()).toBe('(edited)');

    await alert(watcher).locator('.b-mentions', { hasText: 'by Carol Chen' }).waitFor(WAIT);
    await watcher.close();

    // The figures behind the alert (the budget, the period, the forecast's method) answer Details, to Carol only.
    await alert().getByRole('button', { name: 'Details' }).click();
    const details = page.locator('#stream > article.msg-private', { hasText: 'Spent so far' });
    await details.waitFor(WAIT);
    expect(await details.locator('.b-facts').textContent()).toContain('Monthly budget$150,000.00');
  });

  it('refuses a non-member, says why, and audits the refusal', async () => {
    await actAs(ALICE);
    await alert().getByRole('button', { name: 'Snooze 24 h' }).click();
    const refusal = page.locator('#stream > article.msg-private', { hasText: 'Only owners and approvers of llm-training' });
    await refusal.waitFor(WAIT);
    expect(await refusal.textContent()).toContain('only visible to you');
    expect(await alert().textContent()).not.toContain('Snoozed ');

    const db = new Database(join(serve.cwd, 'data', 'burnrate.db'), { readonly: true });
    const audit = db
      .prepare("SELECT platform, user_id AS user, action, result FROM audit_log WHERE platform = 'console' ORDER BY id")
      .all();
    db.close();
    expect(audit).toEqual([
      { platform: 'console', user: CAROL, action: 'budget.ack', result: 'ok' },
      { platform: 'console', user: ALICE, action: 'snooze', result: 'refused' },
    ]);
  });

  it("answers Show breakdown in the alert's thread, with a table and a chart", async () => {
    await actAs(CAROL);
    await alert().getByRole('button', { name: 'Show breakdown' }).click();
    const thread = alert().locator('.thread');
    // The alert's own chart (spend against the budget) came with it; the breakdown adds two replies.
    await thread.locator('.thread-count', { hasText: '3 replies' }).waitFor(WAIT);
    expect(await thread.locator('.b-image img').count()).toBe(1);
    expect(await thread.locator('.b-header').allTextContents()).toEqual([
      expect.stringMatching(/^Spend of llm-training by service, /),
      expect.stringMatching(/^Spend of llm-training, top 10 resources, /),
    ]);
    expect(await thread.locator('.b-chart svg.bar').count()).toBeGreaterThan(1);

    // The picture of this state: the alert, acknowledged, with its breakdown below.
    await page.mouse.move(1, 790);
    await alert().evaluate((el) => {
      const stream = document.getElementById('stream')!;
      stream.scrollTop = (el as HTMLElement).offsetTop - stream.offsetTop - 8;
    });
    await page.locator('#command-text').blur();
    mkdirSync(join(ROOT, 'test-results'), { recursive: true });
    await page.screenshot({ path: join(ROOT, 'test-results', 'console.png') });
    if (process.env.UPDATE_SCREENSHOTS === '1') await page.screenshot({ path: join(ROOT, 'docs', 'console.png') });
  });

  it('asks before a button with a confirm, and sends nothing when the user backs out', async () => {
    // A guarded button with a hostile label is written straight into the console's table, as
    // ConsoleChat would store it; the label must show as text. (The idle alert's real Stop now is
    // tested below.)
    const db = new Database(join(serve.cwd, 'data', 'burnrate.db'));
    const message = {
      summary: 'guarded',
      blocks: [
        { type: 'text', text: 'A guarded button <img src=x onerror=alert(1)>' },
        {
          type: 'actions',
          buttons: [
            {
              action: 'demo.stop',
              label: 'Stop <b>it</b>',
              value: 'i-1',
              style: 'danger',
              confirm: { title: 'Stop i-1?', text: 'It stops <now>.', confirm: 'Stop', deny: 'Keep it' },
            },
          ],
        },
      ],
    };
    const at = new Date().toISOString();
    db.prepare("INSERT INTO console_messages (channel, message, created_at, updated_at) VALUES ('vision', ?, ?, ?)").run(
      JSON.stringify(message),
      at,
      at,
    );
    db.close();

    await page.click('a.channel[data-channel="vision"]');
    const guarded = page.locator('#stream > article', { hasText: 'A guarded button' });
    await guarded.waitFor(WAIT);
    expect(await guarded.locator('.b-text').textContent()).toBe('A guarded button <img src=x onerror=alert(1)>');
    expect(await guarded.locator('img').count()).toBe(0);

    const posted: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') posted.push(new URL(request.url()).pathname);
    });
    await guarded.getByRole('button', { name: 'Stop <b>it</b>' }).click();
    const dialog = page.locator('dialog#confirm');
    await dialog.waitFor({ state: 'visible', ...WAIT });
    expect(await dialog.locator('h2').textContent()).toBe('Stop i-1?');
    expect(await dialog.locator('p').textContent()).toBe('It stops <now>.');
    await dialog.getByRole('button', { name: 'Keep it' }).click();
    await dialog.waitFor({ state: 'hidden', ...WAIT });
    expect(await page.locator('#stream > article.msg-private').count()).toBe(0);
    expect(posted).toEqual([]);

    await guarded.getByRole('button', { name: 'Stop <b>it</b>' }).click();
    await dialog.getByRole('button', { name: 'Stop' }).click();
    // The click reached the dispatcher, which knows no `demo.stop` and says so, privately.
    await page.locator('#stream > article.msg-private', { hasText: 'This button ("demo.stop") is not one burnrate knows.' }).waitFor(WAIT);
    expect(posted).toEqual(['/console/action']);
  });

  it('ran without a script error or a Content-Security-Policy violation', () => {
    expect(problems).toEqual([]);
  });
});

describe.skipIf(!hasChromium)('the idle-GPU alert in the console', () => {
  // serve at a chosen moment of the demo: Wednesday 18 Nov 2026 06:00Z, when ml-research has two
  // idle notebooks (alice-notebook, then research-shared-notebook, by money burned) and its old V100
  // box, idle for days.
  let serve: ServeProcess;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  const problems: string[] = [];
  const idleAlert = (): Locator => page.locator('#stream > article', { hasText: 'ML Research: 3 idle GPU instances' });

  beforeAll(async () => {
    serve = await startServe({ BURNRATE_NOW: '2026-11-18T06:00:00Z' });
    browser = await launchBrowser();
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    expect(await serve?.stop()).toBe(0);
    expect(serve.err()).toBe('');
  });

  it('shows the idle alert; Keep 4 h updates it; Stop now asks first and answers with the dry run', async () => {
    // Every team and the unowned instances, each on two platforms: the terminal and the console.
    expect(serve.out()).toMatch(/idle-GPU check: 13 idle instance\(s\), 10 alert\(s\) queued \(actions are dry runs\)/);
    page = await browser.context.newPage();
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    await page.goto(`http://127.0.0.1:${serve.port}/?channel=ml-research&as=${ALICE}`);
    await idleAlert().waitFor(WAIT);
    expect(await idleAlert().locator('.b-text').allTextContents()).toEqual([
      expect.stringMatching(/burned while idle so far/),
      expect.stringMatching(/^alice-notebook \(g5\.xlarge\): idle since .+ per day$/),
      expect.stringMatching(/^research-shared-notebook \(g5\.2xlarge\): idle since .+ per day$/),
      expect.stringMatching(/^research-legacy-v100 \(p3\.2xlarge\): idle since .+ per day$/),
    ]);
    const perInstance = ['Stop now', 'Keep 4 h', 'Keep until next working day', 'Not ours', 'Details'];
    expect(await idleAlert().locator('button').allTextContents()).toEqual([...perInstance, ...perInstance, ...perInstance]);

    await idleAlert().getByRole('button', { name: 'Keep 4 h' }).first().click();
    await idleAlert().locator('.b-context', { hasText: `Kept running by Alice Martin until 2026-11-18 11:00 CET` }).waitFor(WAIT);
    // The kept one keeps only Details.
    expect(await idleAlert().locator('button').allTextContents()).toEqual(['Details', ...perInstance, ...perInstance]);

    await idleAlert().getByRole('button', { name: 'Stop now' }).first().click();
    const dialog = page.locator('dialog#confirm');
    await dialog.waitFor({ state: 'visible', ...WAIT });
    expect(await dialog.locator('h2').textContent()).toBe('Stop research-shared-notebook?');
    expect(await dialog.locator('p').textContent()).toMatch(/^This stops research-shared-notebook \(.+\), saving \$[\d,.]+ per day\./);
    await dialog.getByRole('button', { name: 'Stop it' }).click();
    await page
      .locator('#stream > article.msg-private', { hasText: 'Dry run: burnrate would have stopped research-shared-notebook' })
      .waitFor(WAIT);
    expect(await idleAlert().locator('button').count()).toBe(11); // a dry run stops nothing: the buttons stay

    // "Not ours": a private picker of the other teams; the pick marks the alert and hands it over.
    await idleAlert().getByRole('button', { name: 'Not ours' }).first().click();
    const picker = page.locator('#stream > article.msg-private', { hasText: 'Which team owns research-shared-notebook?' });
    await picker.waitFor(WAIT);
    expect(await picker.locator('button').allTextContents()).toEqual(['LLM Training', 'Inference Platform', 'Computer Vision']);
    await picker.getByRole('button', { name: 'LLM Training' }).click();
    await page.locator('#stream > article.msg-private', { hasText: 'Handed research-shared-notebook to LLM Training.' }).waitFor(WAIT);
    await idleAlert().locator('.b-context', { hasText: `Handed to LLM Training by Alice Martin` }).waitFor(WAIT);
    expect(await idleAlert().locator('button').count()).toBe(7); // the V100 box's, still to answer, and Details of the two settled

    const db = new Database(join(serve.cwd, 'data', 'burnrate.db'), { readonly: true });
    const audit = db.prepare("SELECT user_id AS user, action, result FROM audit_log WHERE platform = 'console' ORDER BY id").all();
    db.close();
    expect(audit).toEqual([
      { user: ALICE, action: 'instance.keep', result: 'ok' },
      { user: ALICE, action: 'instance.stop', result: 'dry-run' },
      { user: ALICE, action: 'instance.reroute', result: 'ok' },
    ]);
    expect(problems).toEqual([]);
  });
});
