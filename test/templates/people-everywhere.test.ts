import { describe, expect, it } from 'vitest';
import { budgetAlert } from '../../templates/budget-alert.js';
import { budgetChanged } from '../../templates/budget-changed.js';
import { idleAlert } from '../../templates/idle-alert.js';
import { personIn, timeOf, type Mention, type Message } from '../../templates/message.js';
import { privateReply } from '../../templates/private-reply.js';
import { renderAdaptiveCard } from '../../templates/render/adaptive-card.js';
import { renderBlockKit } from '../../templates/render/block-kit.js';
import { renderHtml } from '../../templates/render/html.js';
import { renderPlainText } from '../../templates/render/plain-text.js';
import { reviewClose, reviewReminder } from '../../templates/review-followups.js';
import { reviewLine } from '../../templates/review-line.js';
import { savingsLedgerMessage } from '../../templates/savings-ledger.js';
import { spotApprovalPending, spotMigrated, spotReverted } from '../../templates/spot-migration.js';
import { sweepAlert } from '../../templates/sweep-alert.js';
import { MESSAGE_RECORDS } from './hostile-messages.js';

// Two people of Slack and one of Teams, each with an id no reader should ever see as text.
const PEOPLE: Record<string, Mention> = {
  U0SLACKANN: { id: 'U0SLACKANN', name: 'Ann Slack', group: false, platform: 'slack' },
  U0SLACKBEN: { id: 'U0SLACKBEN', name: 'Ben Slack', group: false, platform: 'slack' },
  '29:1teamscat': { id: '29:1teamscat', name: 'Cat Teams', group: false, platform: 'msteams' },
};
const IDS = Object.keys(PEOPLE);
const person = (id: string): Mention => PEOPLE[id] ?? { id: null, name: id, group: false };
const [ann, ben, cat] = IDS.map(person) as [Mention, Mention, Mention];
const at = new Date('2026-11-20T09:00:00Z');
const { finding, gpu, sweep, migration, line } = MESSAGE_RECORDS;
const answered = {
  ...line,
  answer: 'spot' as const,
  answeredBy: 'U0SLACKANN',
  answeredAt: at,
  owner: '29:1teamscat',
  ownerBy: 'U0SLACKBEN',
  ownerAt: at,
};
const twoApprovals = {
  ...migration,
  approvals: [
    { approver: 'U0SLACKANN', at },
    { approver: '29:1teamscat', at },
  ],
};

/** Every message kind that names someone, with a person in every field that names one. */
const MESSAGES: Record<string, Message> = {
  'idle alert (stopped, resumed, kept, handed over)': idleAlert({
    teamName: 'ML',
    items: [
      { finding: gpu, settled: true, note: `Stopped by ${personIn(ann)} at ${timeOf(at)}; resumed by ${personIn(cat)} at ${timeOf(at)}` },
      { finding: gpu, settled: true, note: `Kept running by ${personIn(ben)} until ${timeOf(at)}` },
      { finding: gpu, settled: true, note: `Handed to LLM by ${personIn(cat)} at ${timeOf(at)}` },
    ],
    dryRun: false,
    mode: 'notify',
  }),
  'review line (answer, owner, picker)': reviewLine({
    line: answered,
    currency: 'USD',
    people: IDS,
    person,
    spot: { dryRun: false, secondApproverAbove: 1 },
  }),
  'review reminder': reviewReminder({ teamName: 'ML', month: '2026-11', unanswered: [line], people: [ann, cat] }),
  'review close': reviewClose({ teamName: 'ML', month: '2026-11', currency: 'USD', decisions: [{ line: answered, saving: 1 }], person }),
  'spot approval pending': spotApprovalPending(
    'fra',
    { ...migration, approvals: [{ approver: 'U0SLACKANN', at }] },
    { person, mayApprove: [personIn(cat)] },
  ),
  'spot migrated': spotMigrated('fra', twoApprovals, 'detail', undefined, { person }),
  'spot migrated, reverted': spotMigrated('fra', twoApprovals, 'detail', { by: ben, at }, { person }),
  'spot reverted': spotReverted('fra', migration, cat, 'detail'),
  'budget alert (acknowledged, snoozed)': budgetAlert({
    finding,
    teamName: 'ML',
    event: 'new',
    previousThreshold: null,
    acknowledged: { by: ann, at },
    snoozed: { by: cat, at, until: at },
  }),
  'budget changed': budgetChanged({ teamName: 'ML', cadence: 'monthly', amount: 10, previous: 5, currency: 'USD', by: cat }),
  'sweep alert stopped': sweepAlert({
    teamName: 'ML',
    finding: sweep,
    dryRun: false,
    stopped: { by: ann, at, summary: 'stopped', instances: [] },
  }),
  'a refusal naming whom to ask': privateReply(
    'Only approvers of ML can approve it.',
    `Ask ${personIn(ann)}, ${personIn(cat)} or an admin.`,
  ),
  savings: savingsLedgerMessage(
    {
      period: { start: '2026-11-01', end: '2026-12-01' },
      currency: 'USD',
      lines: [
        {
          action: 'instance.stop',
          ref: 'f',
          resourceId: 'i-1',
          name: 'box',
          team: 'ml',
          at,
          byUser: '29:1teamscat',
          expectedDaily: 1,
          currency: 'USD',
          expected: 1,
          days: 1,
          endedBy: null,
          baselineDaily: 1,
          realised: 1,
          confirmedDays: 1,
          note: '',
        },
      ],
      realised: 1,
      expected: 1,
      billedThrough: '2026-11-30',
      basis: { expected: 'e', realised: 'r' },
    },
    'ml',
    person,
  ),
};

/** What a reader sees: the rendering without the values handed back on click and the Teams mention list. */
function shown(rendered: unknown): string {
  return JSON.stringify(rendered, (key, value: unknown) =>
    key === 'value' || key === 'data' || key === 'entities' ? undefined : value,
  ).replace(/data-value="[^"]*"/g, '');
}

describe('people in every message kind, on every platform', () => {
  for (const [kind, message] of Object.entries(MESSAGES)) {
    it(`${kind}: no raw user id on any platform, each person pinged on their own platform and named on the others`, () => {
      const slack = shown(renderBlockKit(message).blocks).replace(/<@U0SLACK(ANN|BEN)>/g, '');
      const card = renderAdaptiveCard(message) as { msteams: { entities?: { mentioned: { id: string } }[] } };
      const teams = shown(card);
      for (const surface of [slack, teams, renderHtml(message).replace(/data-value="[^"]*"/g, ''), renderPlainText(message)])
        for (const id of IDS) expect(surface, `${id} in ${kind}`).not.toContain(id);
      // Who Teams pings is a Teams person: a Slack id never reaches its entities.
      for (const entity of card.msteams.entities ?? []) expect(entity.mentioned.id).toBe('29:1teamscat');
    });
  }
});
