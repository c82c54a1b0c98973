import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/sqlite/open-sqlite-store.js';
import { cli, workDir } from '../support/run-cli.js';

const NOW = '2026-11-21T09:00:00Z';
const at = (minutes: number) => new Date(Date.parse('2026-11-21T07:00:00Z') + minutes * 60_000);
const TOKEN = 'xoxb-000000000-secret-token-value';

/**
 * 25 alerts queued at 07:00: #1..#22 failed for good (#22 after a transient failure first, so 2
 * attempts), #23 failing and waiting for its retry, #24 sent, #25 waiting for its first attempt.
 * aws-ce has data and then a failed refresh, gcp-budgets refreshed fine, prometheus never worked.
 */
async function seed(db: string): Promise<void> {
  const store = openStore(db);
  const drafts = Array.from({ length: 25 }, (_, i) => ({
    dedupeKey: `alert:${i + 1}`,
    target: `slack:C0TEAM${i + 1}`,
    message: { summary: `Budget alert ${i + 1}`, blocks: [] },
  }));
  expect(await store.outbox.enqueue(drafts, at(0))).toBe(25);
  const claim = async (minute: number) => (await store.outbox.claimNext('seed', at(minute), 5 * 60_000, ['slack']))!;
  const fail = (id: number, minute: number, error: string, giveUp: boolean, retryAt = at(minute)) =>
    store.outbox.markRetry(id, 'seed', { error, nextAttemptAt: retryAt, giveUp, inDoubt: false, now: at(minute) });
  for (let i = 1; i <= 21; i++) await fail((await claim(i)).id, i, i % 2 ? 'channel_not_found' : 'not_in_channel', true);
  await fail((await claim(22)).id, 22, 'ratelimited', false);
  await fail((await claim(23)).id, 23, 'invalid_auth', true);
  await fail((await claim(30)).id, 30, 'service unavailable (503)', false, at(200));
  const sent = await claim(31);
  expect(await store.outbox.markSent(sent.id, 'seed', '1700000000.000100', at(31))).toBe(true);
  await store.importBatches(
    [{ scope: { source: 'aws-ce', billingPeriods: ['2026-11'] }, rows: [], dataThrough: '2026-11-20T00:00:00.000Z' }],
    at(0),
  );
  await store.cloudBudgets.replace('gcp-budgets', [], at(10));
  await store.freshness.recordFailure('aws-ce', 'AccessDeniedException: not authorized to perform ce:GetCostAndUsage', at(60));
  await store.freshness.recordFailure('prometheus', 'connect ECONNREFUSED 127.0.0.1:9090', at(50));
  await store.close();
}

async function statusJson(cwd: string, db: string) {
  const result = await cli(['status', '--db', db, '--json'], { cwd, now: NOW });
  expect(result).toMatchObject({ code: 0, err: '' });
  return JSON.parse(result.out);
}

describe('burnrate status and burnrate outbox retry', () => {
  it('status shows the outbox, the newest 20 failed items and each source, and exits 0', async () => {
    const cwd = workDir();
    const db = join(cwd, 'status.db');
    await seed(db);

    const text = await cli(['status', '--db', db], { cwd, now: NOW, env: { SLACK_BOT_TOKEN: TOKEN } });
    expect(text.code).toBe(0);
    expect(text.err).toBe('');
    const lines = text.out.trimEnd().split('\n');
    expect(lines.slice(0, 4)).toEqual([
      'Outbox: 2 pending (1 failing), 0 sending, 1 sent, 22 failed, 0 suspected duplicates',
      '  oldest waiting item: queued 2h 0m ago (2026-11-21 07:00 UTC)',
      '',
      'Failed items (22, newest first):',
    ]);
    const shown = lines.filter((l) => /^ {2}#\d+ /.test(l)).map((l) => Number(/#(\d+)/.exec(l)![1]));
    expect(shown).toEqual(Array.from({ length: 20 }, (_, i) => 22 - i));
    expect(lines.slice(4, 6)).toEqual([
      '  id   target          failing since         attempts  last error         message',
      '  #22  slack:C0TEAM22  2026-11-21 07:22 UTC  2         invalid_auth       Budget alert 22',
    ]);
    expect(lines).toContain('  #3   slack:C0TEAM3   2026-11-21 07:03 UTC  1         channel_not_found  Budget alert 3');
    expect(lines).toContain('  and 2 more');
    expect(lines.slice(-8)).toEqual([
      '',
      'Sources:',
      '  source       data through          last refresh          state',
      '  aws-ce       2026-11-20 00:00 UTC  2026-11-21 07:00 UTC  FAILING since 2026-11-21 08:00 UTC: AccessDeniedException: not authorized to perform ce:GetCostAndUsage',
      '  gcp-budgets  -                     2026-11-21 07:10 UTC  ok',
      '  prometheus   -                     never                 FAILING since 2026-11-21 07:50 UTC: connect ECONNREFUSED 127.0.0.1:9090',
      '',
      'Next: fix the cause, then: burnrate outbox retry (all 22), or burnrate outbox retry --id 22 (one)',
    ]);
    expect(lines).toHaveLength(4 + 1 + 20 + 1 + 8);
    expect(text.out).not.toContain(TOKEN);

    const json = await statusJson(cwd, db);
    expect(json.outbox).toEqual({
      pending: 2,
      failing: 1,
      sending: 0,
      sent: 1,
      failed: 22,
      suspectedDuplicates: 0,
      oldestPendingAt: '2026-11-21T07:00:00.000Z',
      oldestPendingAgeSeconds: 7200,
    });
    expect(json.failed).toHaveLength(20);
    expect(json.failed[0]).toEqual({
      id: 22,
      target: 'slack:C0TEAM22',
      failingSince: '2026-11-21T07:22:00.000Z',
      attempts: 2,
      lastError: 'invalid_auth',
      summary: 'Budget alert 22',
    });
    expect(json.failed[19]).toMatchObject({ id: 3, attempts: 1, lastError: 'channel_not_found' });
    expect(json.moreFailed).toBe(2);
    expect(json.sources).toEqual([
      {
        source: 'aws-ce',
        dataThrough: '2026-11-20T00:00:00.000Z',
        refreshedAt: '2026-11-21T07:00:00.000Z',
        failing: { since: '2026-11-21T08:00:00.000Z', error: 'AccessDeniedException: not authorized to perform ce:GetCostAndUsage' },
      },
      { source: 'gcp-budgets', dataThrough: null, refreshedAt: '2026-11-21T07:10:00.000Z', failing: null },
      {
        source: 'prometheus',
        dataThrough: null,
        refreshedAt: null,
        failing: { since: '2026-11-21T07:50:00.000Z', error: 'connect ECONNREFUSED 127.0.0.1:9090' },
      },
    ]);
  });

  it('retry re-queues one id, refuses a bad id without changing anything, then re-queues all', async () => {
    const cwd = workDir();
    const db = join(cwd, 'retry.db');
    await seed(db);

    const one = await cli(['outbox', 'retry', '--id', '22', '--db', db], { cwd, now: NOW });
    expect(one).toMatchObject({ code: 0, err: '' });
    expect(one.out).toBe(
      'Re-queued 1 failed outbox item (#22) with a fresh retry budget.\nThe running burnrate serve delivers them within a minute; burnrate status shows how they fare.\n',
    );
    const afterOne = await statusJson(cwd, db);
    expect(afterOne.outbox).toMatchObject({ pending: 3, failing: 1, failed: 21 });
    expect(afterOne.failed.map((f: { id: number }) => f.id)).toEqual(Array.from({ length: 20 }, (_, i) => 21 - i));
    expect(afterOne.moreFailed).toBe(1);
    // Due now with a fresh budget: the next delivery pass takes it.
    const store = openStore(db);
    const due = (await store.outbox.due(new Date(NOW))).find((item) => item.id === 22);
    await store.close();
    expect(due).toMatchObject({ status: 'pending', attempts: 0, lastError: null, firstFailureAt: null });

    for (const ids of [['3', '99'], ['22'], ['23']]) {
      const bad = await cli(['outbox', 'retry', ...ids.flatMap((id) => ['--id', id]), '--db', db], { cwd, now: NOW });
      expect(bad.code).toBe(2);
      expect(bad.out).toBe('');
      expect(bad.err).toContain(`--id ${ids.at(-1)}: not a failed outbox item; nothing was re-queued.`);
      expect(bad.err).not.toContain('--id 3:');
    }
    expect((await statusJson(cwd, db)).outbox).toMatchObject({ pending: 3, failed: 21 });

    const all = await cli(['outbox', 'retry', '--db', db, '--json'], { cwd, now: NOW });
    expect(all.code).toBe(0);
    expect(JSON.parse(all.out)).toEqual({ requeued: 21, ids: Array.from({ length: 21 }, (_, i) => i + 1) });
    const afterAll = await statusJson(cwd, db);
    expect(afterAll.outbox).toMatchObject({ pending: 24, failing: 1, sent: 1, failed: 0 });
    expect(afterAll).toMatchObject({ failed: [], moreFailed: 0 });

    const text = await cli(['status', '--db', db], { cwd, now: NOW });
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/^Outbox: 24 pending \(1 failing\), 0 sending, 1 sent, 0 failed, 0 suspected duplicates\n/);
    expect(text.out).not.toContain('Failed items');
    expect(text.out).not.toContain('Next:');
    expect((await cli(['outbox', 'retry', '--db', db], { cwd, now: NOW })).out).toBe('No failed outbox items to re-queue.\n');
  });

  it('status of an empty database says so', async () => {
    const cwd = workDir();
    const text = await cli(['status', '--db', join(cwd, 'empty.db')], { cwd, now: NOW });
    expect(text).toEqual({
      code: 0,
      err: '',
      out: 'Outbox: 0 pending (0 failing), 0 sending, 0 sent, 0 failed, 0 suspected duplicates\n\nSources: none refreshed yet\n',
    });
  });

  it.each([
    [['outbox'], 'missing outbox action'],
    [['outbox', 'purge'], 'unknown outbox action "purge"'],
    [['outbox', 'retry', '--id', 'seven'], '--id must be an outbox item number such as 12, got "seven"'],
    [['outbox', 'retry', 'extra'], 'Unexpected argument'],
    [['status', '--verbose'], "Unknown option '--verbose'"],
  ])('%j is a usage error with the usage line', async (args, message) => {
    const cwd = workDir();
    const result = await cli([...args, '--db', join(cwd, 'x.db')], { cwd, now: NOW });
    expect(result.code).toBe(2);
    expect(result.err).toContain(message);
    expect(result.err).toContain(`Usage: burnrate ${args[0]}`);
    expect(result.err).not.toContain('    at ');
  });
});
