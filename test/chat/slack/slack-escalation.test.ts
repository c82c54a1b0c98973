import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { daysOf } from '../../../src/domain/period.js';
import { setBudget } from '../../../src/actions/set-budget.js';
import { runBudgetCheck } from '../../../src/jobs/budget-check.js';
import { deliverOutbox } from '../../../src/outbox/deliver-outbox.js';
import { FakeSlackApi, type SlackApiCall } from '../../fakes/fake-slack-api.js';
import { importSpend, spendRow, testDeps } from '../../support/deps.js';
import { blockActionsBody, postSigned } from '../../support/slack-request.js';
import { slackChat, startSlackServer, waitFor } from './slack-harness.js';
import { mlTeam } from '../../support/ml-team.js';

const config = {
  teams: [mlTeam({ slack: { channel: 'C0ML' }, owners: ['U0OWNER'] })],
};

/** A budget alert's chart goes into its thread as a post Slack draws from its numbers (data_visualization). */
const isChart = (c: SlackApiCall) => JSON.stringify(c.args.blocks ?? '').includes('data_visualization');

describe('an escalating budget alert in Slack', () => {
  let fake: FakeSlackApi;
  /** The posts that are not charts, in order. */
  const alertPosts = () => fake.callsOf('chat.postMessage').filter((c) => !isChart(c));
  beforeEach(async () => {
    fake = await FakeSlackApi.start({ expect: ['chat.postMessage', 'chat.update'] });
  });
  afterEach(async () => {
    fake.assertNoUnexpectedCalls();
    await fake.close();
  });

  it('edits the original alert in place and says what changed in its thread', async () => {
    const { deps } = testDeps(config);
    deps.chat = [slackChat(fake, deps)];

    await importSpend(deps, '2026-11-01', '2026-11-11', 55); // 550: past 50%
    await runBudgetCheck(deps);
    // The alert, and its chart in its thread.
    expect(await deliverOutbox(deps)).toEqual({ sent: 2, retried: 0, failed: 0 });
    const [first] = fake.calls;
    expect(first).toMatchObject({
      method: 'chat.postMessage',
      authorized: true,
      args: { channel: 'C0ML', text: 'ML has spent 55% of its November 2026 budget ($550.00 of $1,000.00)' },
    });
    expect(first?.args.thread_ts).toBeUndefined();
    const ts = '1700000000.000001';
    // The same check again: nothing new to say, no second chart.
    await runBudgetCheck(deps);
    expect(await deliverOutbox(deps)).toEqual({ sent: 0, retried: 0, failed: 0 });

    await importSpend(deps, '2026-11-01', '2026-11-21', 55); // 1,100: past 80 and 100
    await runBudgetCheck(deps);
    // The edit, the reply saying what changed, and the chart as it stands now.
    expect(await deliverOutbox(deps)).toEqual({ sent: 3, retried: 0, failed: 0 });

    const [update] = fake.callsOf('chat.update');
    const reply = alertPosts()[1];
    expect(update).toMatchObject({ method: 'chat.update', args: { channel: 'C0ML', ts } });
    expect(reply).toMatchObject({ method: 'chat.postMessage', args: { channel: 'C0ML', thread_ts: ts } });
    expect(reply?.args.text).toContain('ML has spent 110% of its November 2026 budget');
    // Each chart a post Slack draws (data_visualization) in the alert's thread: the first, and the one as it stands now.
    const charts = fake.callsOf('chat.postMessage').filter(isChart);
    expect(charts.map((c) => c.args.thread_ts)).toEqual([ts, ts]);
    expect(fake.calls.filter((c) => (c.method === 'chat.postMessage' && !isChart(c)) || c.method === 'chat.update')).toHaveLength(3);
  });

  it("posts the escalation in the channel too (reply_broadcast), pinging the team's approvers and their user group", async () => {
    fake.expect('users.list', 'usergroups.list');
    fake.people.push({ id: 'U0DAN', name: 'dan', realName: 'Dan Approver' });
    fake.userGroups.push({ id: 'S0LEADS', handle: 'ml-leads', name: 'ML leads', users: ['U0ERIN'] });
    const { deps } = testDeps({ teams: [{ ...config.teams[0], approvers: ['U0DAN', '@ml-leads', 'nobody-known@example.com'] }] });
    const chat = slackChat(fake, deps);
    deps.chat = [chat];
    await chat.people!.refresh!();

    await importSpend(deps, '2026-11-01', '2026-11-11', 55); // 50 %: the first alert pings nobody
    await runBudgetCheck(deps);
    await deliverOutbox(deps);
    expect(JSON.stringify(fake.callsOf('chat.postMessage')[0]!.args.blocks)).not.toMatch(/<@|subteam/);

    await importSpend(deps, '2026-11-01', '2026-11-21', 55); // 110 %: escalated
    await runBudgetCheck(deps);
    await deliverOutbox(deps);
    const reply = alertPosts()[1]!;
    expect(String(reply.args.reply_broadcast)).toBe('true');
    const mentions = JSON.stringify(reply.args.blocks);
    expect(mentions).toContain('For the approvers: <@U0DAN> <!subteam^S0LEADS> nobody-known@example.com');
    // Slack keeps it in the thread and shows it in the channel: history reads it back at the top level.
    expect(fake.messages.filter((m) => m.threadTs === undefined || m.broadcast).map((m) => m.text)).toHaveLength(2);
  });

  /** A team whose approver is U0DAN, alerted at 55% of its $1,000 budget ($550 spent). */
  async function alertedAt55() {
    const { deps } = testDeps({ teams: [{ ...config.teams[0], approvers: ['U0DAN'] }] });
    deps.chat = [slackChat(fake, deps)];
    await importSpend(deps, '2026-11-01', '2026-11-11', 55);
    await runBudgetCheck(deps);
    await deliverOutbox(deps);
    return deps;
  }

  it('says, when an alert resolves, the figure that fell under the threshold and why: the budget raised', async () => {
    const deps = await alertedAt55();
    // A bigger budget: 550 / 2,000 is 27.5 %, under the 50 % threshold.
    await setBudget(deps, { userId: 'U0DAN', platform: 'slack' }, { team: 'ml', cadence: 'monthly', amount: 2000, thresholds: null });
    await deliverOutbox(deps);
    const resolution = fake.callsOf('chat.postMessage').find((c) => /back under 50%/.test(String(c.args.text)))!;
    expect(resolution.args.text).toContain(
      `The 50% threshold is no longer crossed with the latest data: $550.00 is spent, ${Math.round((550 / 2000) * 100)}% of $2,000.00, after the budget was raised from $1,000.00 to $2,000.00.`,
    );
    expect(resolution.args.reply_broadcast).toBeUndefined(); // a resolution pings nobody
  });

  it('names the credit that brought spend back under the threshold', async () => {
    const deps = await alertedAt55();
    // The bill restated with a $200 credit dated 5 Nov: 11 × $55 − $200 = $350, 35% of $1,000.
    const credit = { ...spendRow('ml', '2026-11-05', -200), chargeCategory: 'Credit', service: 'AWS Credits' };
    await deps.store.importBatches([
      {
        scope: { source: 'test', billingPeriods: ['2026-11'] },
        rows: [...daysOf({ start: '2026-11-01', end: '2026-11-11' }).map((d) => spendRow('ml', d, 55)), credit],
        dataThrough: '2026-11-11T00:00:00Z',
      },
    ]);
    await runBudgetCheck(deps);
    await deliverOutbox(deps);
    const resolution = fake.callsOf('chat.postMessage').find((c) => /back under 50%/.test(String(c.args.text)))!;
    const spent = 10 * 55 - 200;
    expect(resolution.args.text).toContain(
      `$${spent}.00 is spent, ${(spent / 1000) * 100}% of $1,000.00, after a credit of $200.00 on 5 Nov.`,
    );
  });

  it("announces a budget changed from chat in the team's channel and edits the open alert to the new budget at once", async () => {
    const deps = await alertedAt55();
    const alertTs = String(fake.callsOf('chat.postMessage')[0]!.answer?.ts);

    // The owner may not; the approver may.
    await expect(
      setBudget(deps, { userId: 'U0OWNER', platform: 'slack' }, { team: 'ml', cadence: 'monthly', amount: 600, thresholds: null }),
    ).rejects.toThrow('Only approvers of ml can change its budget.');
    await setBudget(deps, { userId: 'U0DAN', platform: 'slack' }, { team: 'ml', cadence: 'monthly', amount: 600, thresholds: null });
    await deliverOutbox(deps);

    const posts = fake.callsOf('chat.postMessage');
    const announcement = posts.find((p) => String(p.args.text).startsWith("ML's monthly budget"))!;
    expect(announcement.args).toMatchObject({ channel: 'C0ML', text: "ML's monthly budget is now $600.00 (was $1,000.00)." });
    expect(JSON.stringify(announcement.args.blocks)).toContain('Changed by <@U0DAN>');
    // $550 of $600 is 92%: the 80% threshold is crossed now, told in the alert's thread and broadcast…
    expect(posts.some((p) => p.args.thread_ts === alertTs && /has spent 92% of its November 2026 budget/.test(String(p.args.text)))).toBe(
      true,
    );
    // …and the alert itself shows the new budget.
    const edits = fake.callsOf('chat.update').filter((c) => c.args.ts === alertTs);
    expect(edits.length).toBeGreaterThan(0);
    expect(JSON.stringify(edits.at(-1)!.args.blocks)).toContain('$600.00');
    expect(JSON.stringify(edits.at(-1)!.args.blocks)).not.toContain('$1,000.00');
  });
});

describe("an alert's button, clicked in Slack", () => {
  let fake: FakeSlackApi;
  beforeEach(async () => {
    fake = await FakeSlackApi.start({ expect: ['chat.postMessage', 'chat.update'] });
  });
  afterEach(async () => {
    fake.assertNoUnexpectedCalls();
    await fake.close();
  });

  it('Acknowledge edits that alert in place; a second click is told who was first, privately', async () => {
    const { deps } = testDeps(config);
    const h = await startSlackServer(deps, fake);
    try {
      await importSpend(deps, '2026-11-01', '2026-11-11', 55);
      await runBudgetCheck(deps);
      await deliverOutbox(deps);
      const posted = fake.callsOf('chat.postMessage')[0]!;
      const ts = '1700000000.000001';
      const buttons = posted.args.blocks.flatMap((b: { elements?: { action_id?: string; value?: string }[] }) => b.elements ?? []);
      const ack = buttons.find((e: { action_id?: string }) => e.action_id === 'budget.ack');
      expect(ack?.value).toBeTypeOf('string');

      const click = (responseId: string) =>
        postSigned(
          h.url,
          blockActionsBody({
            actionId: 'budget.ack',
            value: ack.value,
            channel: 'C0ML',
            messageTs: ts,
            user_id: 'U0OWNER',
            response_url: fake.responseUrl(responseId),
          }),
        );
      expect((await click('first')).status).toBe(200);
      await waitFor(() => fake.callsOf('chat.update').length === 1, 'the alert to be edited');
      expect(fake.callsOf('chat.update')[0]?.args).toMatchObject({ channel: 'C0ML', ts });

      expect((await click('second')).status).toBe(200);
      await waitFor(() => fake.responses.length === 1, 'the private answer');
      await h.settled();
      expect(fake.responses[0]).toMatchObject({ id: 'second', body: { response_type: 'ephemeral' } });
      expect(fake.responses[0]?.body.text).toContain('Already acknowledged by U0OWNER');
      expect(fake.callsOf('chat.update')).toHaveLength(1);

      // The state in Block Kit: who acknowledged (a mention Slack shows as their name), no Acknowledge button,
      // the snooze menu and the breakdown.
      type Element = { type: string; action_id: string; value?: string; options?: { value: string; text: { text: string } }[] };
      const elementsOf = (blocks: { type: string; elements?: Element[] }[]) =>
        blocks.filter((b) => b.type === 'actions').flatMap((b) => b.elements ?? []);
      const acked = fake.callsOf('chat.update')[0]!.args.blocks as { type: string; text?: { text: string }; elements?: Element[] }[];
      expect(acked.map((b) => b.text?.text ?? '').join('\n')).toMatch(
        /Acknowledged <!date\^\d+\^\{date_short_pretty\} at \{time\}\|\d{4}-\d\d-\d\d \d\d:\d\d UTC> by <@U0OWNER>/,
      );
      expect(elementsOf(acked).map((e) => [e.type, e.action_id])).toEqual([
        ['button', 'budget.breakdown'],
        ['button', 'finding.details'],
        ['static_select', 'budget.snooze'],
      ]);

      // Snooze 7 days from the menu: Unsnooze replaces the menu; Unsnooze brings it back.
      const menu = elementsOf(acked).find((e) => e.type === 'static_select')!;
      const sevenDays = menu.options!.find((o) => o.text.text === 'Snooze 7 days')!.value;
      const select = (actionId: string, value: string, selected?: string) =>
        postSigned(
          h.url,
          blockActionsBody({
            actionId,
            value,
            selected,
            channel: 'C0ML',
            messageTs: ts,
            user_id: 'U0OWNER',
            response_url: fake.responseUrl(),
          }),
        );
      expect((await select('budget.snooze', sevenDays, sevenDays)).status).toBe(200);
      await waitFor(() => fake.callsOf('chat.update').length === 2, 'the snoozed alert');
      const snoozed = fake.callsOf('chat.update')[1]!.args.blocks as { type: string; text?: { text: string }; elements?: Element[] }[];
      expect(snoozed.map((b) => b.text?.text ?? '').join('\n')).toMatch(
        /Snoozed <!date\^\d+\^[^|]+\|[^>]+ UTC>, until <!date\^\d+\^[^|]+\|[^>]+ UTC>, by <@U0OWNER>/,
      );
      expect(elementsOf(snoozed).map((e) => e.action_id)).toEqual(['budget.unsnooze', 'budget.breakdown', 'finding.details']);
      const unsnooze = elementsOf(snoozed).find((e) => e.action_id === 'budget.unsnooze')!;
      expect((await select('budget.unsnooze', unsnooze.value!)).status).toBe(200);
      await waitFor(() => fake.callsOf('chat.update').length === 3, 'the unsnoozed alert');
      await h.settled();
      expect(elementsOf(fake.callsOf('chat.update')[2]!.args.blocks).map((e) => e.action_id)).toEqual([
        'budget.breakdown',
        'finding.details',
        'budget.snooze',
      ]);
    } finally {
      await h.close();
    }
  });
});
