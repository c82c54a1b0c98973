import { describe, expect, it } from 'vitest';
import { runBudgetCheck } from '../../../src/jobs/budget-check.js';
import { deliverOutbox } from '../../../src/outbox/deliver-outbox.js';
import { FakeBotConnector } from '../../fakes/fake-bot-connector.js';
import { importSpend, testDeps } from '../../support/deps.js';
import { adaptiveCardProblems } from '../../support/platform-limits.js';
import { cardActionActivity, CONVERSATIONS, installActivity, type Person } from '../../support/teams-activity.js';
import { buttonOf, cardButtons, cardText } from './card-buttons.js';
import { useTeamsTestbed } from './teams-harness.js';
import { mlTeam } from '../../support/ml-team.js';

const OWNER: Person = { aadObjectId: '5b8a0c1e-0000-4000-8000-00000000a11c', name: 'Olive Owner' };
const APPROVER: Person = { aadObjectId: '5b8a0c1e-0000-4000-8000-0000000000ad', name: 'Ada Approver' };
const OUTSIDER: Person = { aadObjectId: '5b8a0c1e-0000-4000-8000-0000000000ff', name: 'Otto Outsider' };
const config = {
  teams: [mlTeam({ msteams: { channel: CONVERSATIONS.channel }, owners: [OWNER.aadObjectId], approvers: [APPROVER.aadObjectId] })],
};
describe('a budget alert in Teams: proactive card, Action.Execute buttons, thread replies', () => {
  const bed = useTeamsTestbed();

  /** Installs the app in the channel, crosses 50% of the budget and delivers the alert. */
  async function alerted() {
    const t = testDeps(config);
    const h = await bed.start(t.deps);
    expect((await h.send(installActivity(bed.fake.serviceUrl, OWNER))).status).toBe(200);
    expect(bed.fake.calls).toEqual([]); // an install is remembered, not answered

    await importSpend(t.deps, '2026-11-01', '2026-11-11', 55);
    await runBudgetCheck(t.deps);
    expect(await deliverOutbox(t.deps)).toEqual({ sent: 2, retried: 0, failed: 0 });
    const post = bed.fake.calls[0]!;
    const card = FakeBotConnector.cardOf(post);
    // The chart follows in the alert's reply chain, inside its card (Teams takes no files from bots).
    const chart = bed.fake.calls[1]!;
    expect(chart).toMatchObject({ op: 'send', conversationId: `${CONVERSATIONS.channel};messageid=${post.id}` });
    expect(JSON.stringify(FakeBotConnector.cardOf(chart))).toContain('data:image/png;base64,');
    bed.fake.calls.splice(1, 1); // the tests below count what the clicks add
    /** Clicks the button with this verb (and this title, where several share the verb: a menu's options). */
    const click = async (who: Person, verb: string, title?: string, on: Record<string, any> = card) => {
      const button = title ? cardButtons(on).find((b) => b.verb === verb && b.title === title)! : buttonOf(on, verb);
      const res = await h.send(cardActionActivity(bed.fake.serviceUrl, who, post.id, button.verb, button.value));
      expect(res.status).toBe(200);
      return res.body as { statusCode: number; type: string; value: any };
    };
    return { ...t, h, post, card, click };
  }

  it('posts the alert as a new message in the configured channel, with the same action ids as Slack', async () => {
    const { deps, post, card } = await alerted();
    expect(post).toMatchObject({ op: 'send', conversationId: CONVERSATIONS.channel, activityId: null });
    expect(post.activity.summary).toBe('ML has spent 55% of its November 2026 budget ($550.00 of $1,000.00)');
    expect(card).toMatchObject({ type: 'AdaptiveCard', version: '1.5' });
    expect(adaptiveCardProblems(card)).toEqual([]);
    // Three buttons and the snooze menu (in Teams, its options as buttons under "Snooze…").
    expect(cardButtons(card).map((b) => [b.verb, b.title])).toEqual([
      ['budget.ack', 'Acknowledge'],
      ['budget.breakdown', 'Show breakdown'],
      ['finding.details', 'Details'],
      ['budget.snooze', 'Snooze 24 h'],
      ['budget.snooze', 'Snooze 7 days'],
      ['budget.snooze', 'Snooze to period end'],
    ]);
    expect(await deps.store.outbox.due(new Date('2100-01-01'))).toEqual([]); // marked sent: never posted twice
  });

  it('acknowledge: refused for an outsider (only they see why), then the card refreshes with who did it, once', async () => {
    const { deps, click } = await alerted();
    const refused = await click(OUTSIDER, 'budget.ack');
    expect(refused).toEqual({
      statusCode: 200,
      type: 'application/vnd.microsoft.activity.message',
      value: expect.stringContaining('Only owners and approvers of ml can acknowledge its alerts.'),
    });

    const done = await click(OWNER, 'budget.ack');
    expect(done.type).toBe('application/vnd.microsoft.card.adaptive');
    expect(adaptiveCardProblems(done.value)).toEqual([]);
    // An Entra object id is a Teams mention (named by the roster once it is read).
    expect(cardText(done.value)).toContain(`Acknowledged 2026-11-21 09:00 UTC by <at>${OWNER.aadObjectId}</at>`);
    // The Acknowledge button is gone; the rest stay.
    expect(cardButtons(done.value).map((b) => b.title)).toEqual([
      'Show breakdown',
      'Details',
      'Snooze 24 h',
      'Snooze 7 days',
      'Snooze to period end',
    ]);

    const again = await click(OWNER, 'budget.ack');
    expect(again.value).toMatch(new RegExp(`^Already acknowledged by ${OWNER.aadObjectId} at 2026-11-21 09:00 UTC\\.`));
    expect((await deps.store.audit.list()).map((a) => [a.platform, a.userId, a.action, a.result]).reverse()).toEqual([
      ['msteams', OUTSIDER.aadObjectId, 'budget.ack', 'refused'],
      ['msteams', OWNER.aadObjectId, 'budget.ack', 'ok'],
      ['msteams', OWNER.aadObjectId, 'budget.ack', 'duplicate'],
    ]);
    expect(bed.fake.calls).toHaveLength(1); // refreshes travel in the invoke responses, not as new posts
  });

  it('snooze 7 days: the refreshed card says who snoozed it and until when, and the next check posts nothing', async () => {
    const { deps, click } = await alerted();
    const snoozed = await click(OWNER, 'budget.snooze', 'Snooze 7 days');
    expect(cardText(snoozed.value)).toContain(`Snoozed 2026-11-21 09:00 UTC, until 2026-11-28 09:00 UTC, by <at>${OWNER.aadObjectId}</at>`);
    // While snoozed, the menu gives way to Unsnooze.
    expect(cardButtons(snoozed.value).map((b) => [b.verb, b.title])).toEqual([
      ['budget.ack', 'Acknowledge'],
      ['budget.unsnooze', 'Unsnooze'],
      ['budget.breakdown', 'Show breakdown'],
      ['finding.details', 'Details'],
    ]);
    await importSpend(deps, '2026-11-01', '2026-11-21', 55);
    await runBudgetCheck(deps);
    expect(await deliverOutbox(deps)).toEqual({ sent: 0, retried: 0, failed: 0 });

    // Unsnooze: the snooze ends, the menu is back; a second click is told, privately, and changes nothing.
    const unsnoozed = await click(OWNER, 'budget.unsnooze', undefined, snoozed.value);
    expect(cardText(unsnoozed.value)).not.toContain('Snoozed');
    expect(cardButtons(unsnoozed.value).map((b) => b.title)).toEqual([
      'Acknowledge',
      'Show breakdown',
      'Details',
      'Snooze 24 h',
      'Snooze 7 days',
      'Snooze to period end',
    ]);
    expect((await click(OWNER, 'budget.unsnooze', undefined, snoozed.value)).value).toContain('This alert is not snoozed any more.');
    expect(await deps.store.snoozes.active(deps.clock())).toEqual([]);
    expect((await deps.store.audit.list()).filter((a) => a.action === 'budget.unsnooze').map((a) => a.result)).toEqual(['duplicate', 'ok']);
  });

  it('details: answers the clicker alone with the figures behind the alert; an outsider is refused', async () => {
    const { deps, click } = await alerted();
    expect((await click(OUTSIDER, 'finding.details')).value).toContain('Only members of ml can see its details.');
    const details = await click(OWNER, 'finding.details');
    expect(details.statusCode).toBe(200);
    const text = JSON.stringify(details.value);
    for (const said of ['Spent so far', '$550.00 (55%)', 'Monthly budget', '$1,000.00', 'Period']) expect(text).toContain(said);
    // Nothing is posted for anyone else (only the alert was), and nothing is audited.
    expect(bed.fake.calls).toHaveLength(1);
    expect((await deps.store.audit.list()).filter((a) => a.action === 'finding.details')).toEqual([]);
  });

  it('show breakdown: answers in the thread under the alert, and tells the clicker where', async () => {
    const { post, click } = await alerted();
    const answer = await click(OUTSIDER, 'budget.breakdown');
    expect(answer.value).toContain('Only members of ml can see its breakdown.');
    expect(bed.fake.calls).toHaveLength(1);

    const shown = await click(OWNER, 'budget.breakdown');
    expect(shown).toEqual({
      statusCode: 200,
      type: 'application/vnd.microsoft.activity.message',
      value: 'Posted in the thread of this alert.',
    });
    const replies = bed.fake.calls.slice(1);
    expect(replies.map((c) => [c.op, c.conversationId])).toEqual([
      ['send', `${CONVERSATIONS.channel};messageid=${post.id}`],
      ['send', `${CONVERSATIONS.channel};messageid=${post.id}`],
    ]);
    expect(cardText(FakeBotConnector.cardOf(replies[0]!))).toContain('ml by service');
    expect(cardText(FakeBotConnector.cardOf(replies[1]!))).toContain('ml, top 10 resources');
  });

  it('an escalation edits the card in place and says what changed in its thread (the reply chain reviews use)', async () => {
    const { deps, post } = await alerted();
    await importSpend(deps, '2026-11-01', '2026-11-21', 55); // 1,100: past 80 and 100
    await runBudgetCheck(deps);
    expect(await deliverOutbox(deps)).toEqual({ sent: 3, retried: 0, failed: 0 });
    const [, update, reply, chart] = bed.fake.calls;
    expect(update).toMatchObject({ op: 'update', conversationId: CONVERSATIONS.channel, activityId: post.id });
    expect(update!.activity.summary).toContain('ML has spent 110% of its November 2026 budget');
    expect(reply).toMatchObject({ op: 'send', conversationId: `${CONVERSATIONS.channel};messageid=${post.id}` });
    expect(chart).toMatchObject({ op: 'send', conversationId: `${CONVERSATIONS.channel};messageid=${post.id}` });
  });

  it('an escalation pings the approvers by name: an <at> mention the card lists among its entities', async () => {
    bed.fake.roster.push(
      { id: '29:1olive', name: OWNER.name, aadObjectId: OWNER.aadObjectId },
      { id: '29:1ada', name: APPROVER.name, aadObjectId: APPROVER.aadObjectId, email: 'ada@example.com' },
      { id: '29:1otto', name: OUTSIDER.name, aadObjectId: OUTSIDER.aadObjectId },
    );
    const { deps } = await alerted();
    const people = deps.chat[0]!.people!;
    await people.refresh!();
    expect(bed.fake.rosterReads).toEqual([CONVERSATIONS.channel, CONVERSATIONS.channel]); // 3 members, 2 per page
    expect(people.nameOf(APPROVER.aadObjectId)).toBe('Ada Approver');
    expect(people.userOfEmail('ADA@example.com')).toBe(APPROVER.aadObjectId);

    await importSpend(deps, '2026-11-01', '2026-11-21', 55);
    await runBudgetCheck(deps);
    await deliverOutbox(deps);
    const card = FakeBotConnector.cardOf(bed.fake.calls.at(-2)!); // the last is the chart
    expect(cardText(card)).toContain('For the approvers: <at>Ada Approver</at>');
    expect(card.msteams.entities).toEqual([
      { type: 'mention', text: '<at>Ada Approver</at>', mentioned: { id: APPROVER.aadObjectId, name: 'Ada Approver' } },
    ]);
  });
});
