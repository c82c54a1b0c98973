import { describe, expect, it } from 'vitest';
import type { SweepFinding } from '../../src/domain/sweep-finding.js';
import type { SpotMigration } from '../../src/domain/spot-migration.js';
import { personIn, type Message } from '../../templates/message.js';
import { recommendationMessage } from '../../templates/recommendation.js';
import { recommendationList } from '../../templates/recommendation-list.js';
import { renderAdaptiveCard } from '../../templates/render/adaptive-card.js';
import { renderBlockKit } from '../../templates/render/block-kit.js';
import { renderHtml } from '../../templates/render/html.js';
import { renderPlainText } from '../../templates/render/plain-text.js';
import { spotApprovalPending, spotMigrated, spotReverted } from '../../templates/spot-migration.js';
import { sweepAlert, sweepDetails } from '../../templates/sweep-alert.js';
import { firstSectionWords } from '../support/first-section.js';
import { rightSize, spot } from '../support/recommendations.js';
import { adaptiveCardProblems, checkSlackLimits, type SlackBlock } from '../support/platform-limits.js';

const migration: SpotMigration = {
  id: 7,
  instanceId: spot.instanceId,
  team: 'ml-research',
  launchTemplate: 'lt-0a3f9c1e7d2b4a6c8',
  place: 'aws:eu-central-1',
  monthlySaving: 5545.39,
  approvalsNeeded: 2,
  state: 'migrated',
  previousVersion: '1',
  spotVersion: '2',
  createdAt: new Date('2026-11-18T06:00:00Z'),
  migratedAt: new Date('2026-11-18T06:05:00Z'),
  revertedBy: null,
  revertedAt: null,
  detail: null,
  changedAt: new Date('2026-11-18T06:05:00Z'),
  approvals: [
    { approver: 'U0DEMOBOB', at: new Date('2026-11-18T06:00:00Z') },
    { approver: 'U0DEMOADMIN', at: new Date('2026-11-18T06:05:00Z') },
  ],
};
const sweep: SweepFinding = {
  id: 'sweep.spend:llm-training:lr-warmup',
  kind: 'sweep.spend',
  team: 'llm-training',
  sweep: 'lr-warmup',
  cap: 150,
  value: 354.21,
  spend: 354.21,
  gpuHours: 710.7,
  windowHours: 168,
  perHour: 1.99,
  instances: [
    {
      instanceId: 'i-0a',
      name: 'llm-sweep-0',
      instanceType: 'g5.12xlarge',
      gpuCount: 4,
      hourlyPrice: 1.9937,
      protected: true,
      running: true,
      runningHours: 60,
      spend: 119.62,
      gpuHours: 240,
    },
    {
      instanceId: 'i-0b',
      name: 'llm-sweep-1',
      instanceType: 'g5.12xlarge',
      gpuCount: 4,
      hourlyPrice: 1.9937,
      protected: false,
      running: false,
      runningHours: 58,
      spend: 115.63,
      gpuHours: 232,
    },
  ],
};
const options = { teamName: 'ML Research', dryRun: false, secondApproverAbove: 5000 };

const messages: Record<string, Message> = {
  'recommendation spot': recommendationMessage(spot, options),
  'recommendation spot dry-run': recommendationMessage(spot, { ...options, dryRun: true }),
  'recommendation right-size': recommendationMessage(rightSize, options),
  'recommendation list': recommendationList([spot, rightSize], 'ml-research'),
  'recommendation list empty': recommendationList([], 'vision'),
  'recommendation list with an inventory not read': recommendationList([spot], 'ml-research', [
    { source: 'ec2 (eu-west-1)', error: "EC2 in eu-west-1 denied ec2:DescribeInstances to burnrate's AWS credentials" },
  ]),
  'spot approval pending': spotApprovalPending('research-train-fra', {
    ...migration,
    state: 'approving',
    approvals: migration.approvals.slice(0, 1),
  }),
  'spot migrated': spotMigrated(
    'research-train-fra',
    migration,
    'lt-0a3f9c1e7d2b4a6c8: version 2 requests spot capacity and is the default now (was 1).',
  ),
  'spot reverted': spotReverted(
    'research-train-fra',
    { ...migration, state: 'reverted', revertedBy: 'U0DEMOALICE', revertedAt: new Date('2026-11-19T10:00:00Z') },
    { id: 'U0DEMOALICE', name: 'Alice Martin', group: false },
    'version 1 is the default again',
  ),
  'sweep alert': sweepAlert({ teamName: 'LLM Training', finding: sweep, dryRun: true }),
  'sweep alert stopped': sweepAlert({
    teamName: 'LLM Training',
    finding: { ...sweep, kind: 'sweep.gpu-hours', cap: 500, value: 710.7 },
    dryRun: false,
    stopped: {
      by: { id: 'U0DEMOCAROL', name: 'Carol Chen', group: false },
      at: new Date('2026-11-18T06:00:00Z'),
      summary: '1 stopped.',
      instances: [sweep.instances[0]!.instanceId],
    },
  }),
  'sweep details': sweepDetails(sweep, 'LLM Training'),
};

describe.each(Object.entries(messages))('%s', (_name, message) => {
  it('renders to Block Kit within Slack limits, a valid Adaptive Card, plain text and safe HTML', () => {
    const blocks = renderBlockKit(message);
    checkSlackLimits(blocks.blocks as SlackBlock[]);
    const card = renderAdaptiveCard(message);
    expect(adaptiveCardProblems(card)).toEqual([]);
    const html = renderHtml(message);
    expect(html).not.toContain('<gpu>');
    expect({ blocks, card, text: renderPlainText(message), html }).toMatchSnapshot();
  });
});

describe('a sweep alert on a phone', () => {
  it('says what, how much and the buttons in at most 25 words; its instances follow the buttons, how they are counted is in Details', () => {
    const alerts = {
      spend: sweepAlert({ teamName: 'LLM Training', finding: sweep, dryRun: true }),
      'GPU-hours': sweepAlert({
        teamName: 'LLM Training',
        finding: { ...sweep, kind: 'sweep.gpu-hours', cap: 500, value: 710.7 },
        dryRun: false,
      }),
    };
    for (const [name, alert] of Object.entries(alerts)) {
      expect(firstSectionWords(alert).lead, name).toBeLessThanOrEqual(25);
      const buttons = alert.blocks.filter((b) => b.type === 'actions').flatMap((b) => b.buttons.map((x) => x.label));
      expect(buttons, name).toEqual(['Stop sweep', 'Details']);
      expect(renderPlainText(alert), name).toContain('llm-sweep-1');
    }
    // Stopped, Details stays.
    expect(
      messages['sweep alert stopped']!.blocks.filter((b) => b.type === 'actions').flatMap((b) => b.buttons.map((x) => x.label)),
    ).toEqual(['Details']);
    const details = renderPlainText(messages['sweep details']!);
    for (const said of [
      'Window',
      'the last 7 days',
      'GPU-hours',
      'not from the bill',
      'Stop sweep leaves protected instances running',
      `finding ${sweep.id}`,
    ])
      expect(details).toContain(said);
  });
});

describe('a spot approval request on a phone', () => {
  it('says who approved, what it saves and who may give the second approval in at most 25 words', () => {
    const pending = { ...migration, state: 'approving' as const, approvals: migration.approvals.slice(0, 1) };
    const person = (id: string) => ({ id, name: id === 'U0DEMOBOB' ? 'Bob Brown' : 'Dana Admin', group: false });
    const waiting = spotApprovalPending('research-train-fra', pending, {
      person,
      mayApprove: [personIn(person('U0DEMOADMIN')), personIn({ id: 'U0DEMODAN', name: 'Dan Diaz', group: false })],
    });
    const nobody = spotApprovalPending('research-train-fra', pending, { person, mayApprove: [] });
    for (const message of [messages['spot approval pending']!, waiting, nobody])
      expect(firstSectionWords(message).lead).toBeLessThanOrEqual(25);
    expect(renderPlainText(waiting)).toContain('a second, different approver is needed. Waiting for');
    expect(renderPlainText(nobody)).toContain('Nobody else of the team may approve it: an admin can.');
  });
});

describe('recommendation wording', () => {
  it('leads with the saving and carries the evidence; only a spot one has the Approve button', () => {
    const text = renderPlainText(messages['recommendation spot']!);
    expect(text).toContain('Move research-train-fra to spot: save $5,545.39 a month');
    expect(text).toContain('declares checkpointing (checkpoint=true, every 30m)');
    expect(text).toContain('[Approve spot migration]');
    expect(text).toContain('Two different approvers needed.');
    expect(renderPlainText(messages['recommendation right-size']!)).not.toContain('[Approve');
  });

  it('offers no Approve button that would be refused: it says what to change first', () => {
    const blocked = { ...spot, blocker: 'research-train-fra checkpoints every 2h, longer than the 30 min burnrate allows on spot.' };
    const text = renderPlainText(recommendationMessage(blocked, options));
    expect(text).not.toContain('[Approve');
    expect(text).toContain('Not ready for spot yet: research-train-fra checkpoints every 2h');
  });

  it('names both approvers and offers the revert once migrated', () => {
    const text = renderPlainText(messages['spot migrated']!);
    expect(text).toContain('approved by U0DEMOBOB and U0DEMOADMIN');
    expect(text).toContain('[Revert to on-demand]');
  });
});
