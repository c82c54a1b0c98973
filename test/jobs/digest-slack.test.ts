/**
 * Daily and weekly digests, through the real SlackChat (WebClient) to the fake Slack Web API:
 * once per period whatever the job's runs, not before the configured hour, and figures that equal
 * plain sums over the rows the test wrote.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deliverOutbox } from '../../src/outbox/deliver-outbox.js';
import { runOrganisationDigest, runTeamDigests } from '../../src/jobs/digest.js';
import { FakeSlackApi } from '../fakes/fake-slack-api.js';
import { spendRow, testDeps } from '../support/deps.js';
import { slackChat } from '../chat/slack/slack-harness.js';

const config = {
  teams: [
    {
      id: 'ml',
      name: 'ML',
      timezone: 'Europe/Berlin',
      slack: { channel: 'C0ML' },
      budget: { monthly: 3100, currency: 'USD' },
      digest: 'daily',
    },
    { id: 'cv', name: 'CV', timezone: 'UTC', slack: { channel: 'C0CV' }, digest: 'weekly' },
  ],
  admins: ['U0ADMIN'],
  digest: { at: '09:00', organisation: 'daily' },
};

// What the test writes: [team, day, service, amount].
const ROWS: [string, string, string, number][] = [
  ['ml', '2026-12-01', 'EC2', 50],
  ['ml', '2026-12-02', 'EC2', 100],
  ['ml', '2026-12-02', 'S3', 20],
  ['ml', '2026-12-03', 'EC2', 250],
  ['ml', '2026-12-03', 'S3', 20],
  ['ml', '2026-12-03', 'SageMaker', 30],
  ['cv', '2026-12-03', 'EC2', 77],
];
const sum = (pick: (row: (typeof ROWS)[number]) => boolean) => ROWS.filter(pick).reduce((s, r) => s + r[3], 0);
const usd = (n: number) => `$${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

describe('digests in Slack', () => {
  let fake: FakeSlackApi;
  beforeEach(async () => {
    fake = await FakeSlackApi.start({ expect: ['chat.postMessage'] });
  });
  afterEach(async () => {
    fake.assertNoUnexpectedCalls();
    await fake.close();
  });

  async function setup() {
    const t = testDeps(config, '2026-12-04T07:30:00Z'); // 08:30 in Berlin
    t.deps.chat = [slackChat(fake, t.deps)];
    await t.deps.store.importBatches([
      {
        scope: { source: 'test', billingPeriods: ['2026-12'] },
        rows: ROWS.map(([team, day, service, amount]) => ({ ...spendRow(team, day, amount), service, resourceId: null })),
        dataThrough: '2026-12-04T00:00:00Z',
      },
    ]);
    return t;
  }

  it("posts yesterday's digest once, at the team's hour, with the figures of the bill", async () => {
    const { deps, setNow } = await setup();
    expect(await runTeamDigests(deps, ['ml', 'cv'])).toBe(0); // 08:30 in Berlin: not yet
    setNow('2026-12-04T08:30:00Z'); // 09:30 in Berlin
    expect(await runTeamDigests(deps, ['ml', 'cv'])).toBe(1); // cv is weekly: Thursday sends nothing
    await deliverOutbox(deps);
    const posts = fake.callsOf('chat.postMessage');
    expect(posts.map((p) => p.args.channel)).toEqual(['C0ML']);

    const yesterday = sum((r) => r[0] === 'ml' && r[1] === '2026-12-03');
    const dayBefore = sum((r) => r[0] === 'ml' && r[1] === '2026-12-02');
    const monthToDate = sum((r) => r[0] === 'ml');
    const pace = 3100 / 31;
    const text = JSON.stringify(posts[0]!.args.blocks);
    expect(posts[0]!.args.text).toBe(
      `ML: yesterday, 3 Dec: ${usd(yesterday)}, ${Math.round((yesterday / pace - 1) * 100)}% over the budget's pace (${usd(pace)})`,
    );
    expect(text).toContain(`+${usd(yesterday - dayBefore)} (${usd(dayBefore)})`);
    expect(text).toContain(`${usd(monthToDate)} of ${usd(3100)}`);
    // The movers: EC2 and SageMaker changed, S3 did not; a Slack table block.
    const table = (posts[0]!.args.blocks as { type: string; rows?: { text: string }[][] }[]).find((b) => b.type === 'table')!;
    expect(table.rows!.map((row) => row.map((cell) => cell.text))).toEqual([
      ['Service', 'Spent', 'Change'],
      ['EC2', usd(250), `+${usd(150)}`],
      ['SageMaker', usd(30), `+${usd(30)}`],
    ]);

    // Later runs the same day, and serve restarting, queue nothing more.
    setNow('2026-12-04T15:00:00Z');
    expect(await runTeamDigests(deps, ['ml', 'cv'])).toBe(0);
    await deliverOutbox(deps);
    expect(fake.callsOf('chat.postMessage')).toHaveLength(1);
    // The next day has its own.
    setNow('2026-12-05T08:05:00Z');
    expect(await runTeamDigests(deps, ['ml'])).toBe(1);
  });

  it("sends a weekly digest on Mondays, and the organisation's to each admin by direct message, once", async () => {
    const { deps, setNow } = await setup();
    setNow('2026-12-07T09:10:00Z'); // Monday
    expect(await runTeamDigests(deps, ['cv'])).toBe(1);
    expect(await runOrganisationDigest(deps)).toBe(1);
    expect(await runOrganisationDigest(deps)).toBe(0);
    await deliverOutbox(deps);
    const [weekly, organisation] = fake.callsOf('chat.postMessage');
    expect(weekly!.args.channel).toBe('C0CV');
    expect(weekly!.args.text).toBe(`CV: last week, 30 Nov – 6 Dec: ${usd(sum((r) => r[0] === 'cv'))} (no budget set)`);
    expect(organisation!.args.channel).toBe('U0ADMIN');
    const rows = (organisation!.args.blocks as { type: string; rows?: { text: string }[][] }[]).find((b) => b.type === 'table')!.rows!;
    // Yesterday (Sunday 6 Dec) had no spend: every team is listed, at $0.
    expect(rows.map((row) => row.slice(0, 2).map((c) => c.text))).toEqual([
      ['Team', 'Spent'],
      ['ML', usd(0)],
      ['CV', usd(0)],
    ]);
  });
});
