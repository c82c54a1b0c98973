/**
 * One message of every template kind, built from data whose human-facing fields (team, resource,
 * service, budget, sweep and user names, tags, notes, errors) all carry hostile text.
 */
import { findingId, type TrackedFinding } from '../../src/domain/finding.js';
import type { GpuFinding } from '../../src/domain/gpu-finding.js';
import type { ReviewFigures, TrackedReviewLine } from '../../src/domain/review.js';
import type { SweepFinding } from '../../src/domain/sweep-finding.js';
import type { StaleSource } from '../../src/domain/staleness.js';
import type { SpotMigration } from '../../src/domain/spot-migration.js';
import { appHome } from '../../templates/app-home.js';
import { budgetAlert, budgetAlertChange } from '../../templates/budget-alert.js';
import { budgetListMessage } from '../../templates/budget-list.js';
import { budgetStatusMessage } from '../../templates/budget-status.js';
import { privateReply } from '../../templates/private-reply.js';
import { idleAlert } from '../../templates/idle-alert.js';
import { proposedAlert } from '../../templates/action-proposal.js';
import { idleStatus } from '../../templates/idle-status.js';
import type { Message } from '../../templates/message.js';
import { recommendationMessage } from '../../templates/recommendation.js';
import { recommendationList } from '../../templates/recommendation-list.js';
import { reviewChart } from '../../templates/review-chart.js';
import { reviewClose, reviewReminder } from '../../templates/review-followups.js';
import { reviewLine } from '../../templates/review-line.js';
import { reviewSummary } from '../../templates/review-summary.js';
import { spendSummary } from '../../templates/spend-summary.js';
import { spotApprovalPending, spotMigrated, spotReverted } from '../../templates/spot-migration.js';
import { staleDataNotice } from '../../templates/stale-data-notice.js';
import { unreadInventoryNotice } from '../../templates/unread-inventory-notice.js';
import { sweepAlert } from '../../templates/sweep-alert.js';
import { teamPicker } from '../../templates/team-picker.js';
import { rightSize, spot } from '../support/recommendations.js';

/** Ordinary text that must come through every renderer unchanged: accents, CJK, emoji with a zero-width joiner. */
export const ORDINARY = 'Zoë 東京 🚀👩‍💻';
/** What a markdown renderer would turn into a link that hides where it goes. */
export const MARKDOWN_LINK = '[click](https://evil.example/x)';
/**
 * Bidi overrides, isolates and marks, NUL, BEL, ESC, C1 NEL, a Slack broadcast and link, a
 * markdown link and emphasis.
 */
const HOSTILE = `\u202eevil\u202c\u0000\u0007\u001b[2J\u0085\u200e\u200f\u061c\u2066iso\u2069 ${MARKDOWN_LINK} <!channel> <http://evil.example|y> *em* _em_ & done`;

/** A field value: a readable name, the ordinary text, then the hostile part. */
export const h = (name: string) => `${name} ${ORDINARY} ${HOSTILE}`;

const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const USER = h('U0EVIL');
const team = h('team');

const finding: TrackedFinding = {
  // A finding id as burnrate.yml's team ids make it (short, plain): menu option values carry it.
  id: findingId('budget.actual', 't', '2026-11', 80),
  kind: 'budget.actual',
  team,
  cadence: 'monthly',
  period: '2026-11',
  range: { start: '2026-11-01', end: '2026-12-01' },
  threshold: 80,
  amount: 49_210.5,
  budget: 60_000,
  currency: 'USD',
  actual: 49_210.5,
  forecast: { amount: 71_830.25, method: h('method') },
  dataThrough: '2026-11-24T00:00:00Z',
  state: 'open',
  firstSeen: '2026-11-24T09:00:00Z',
  lastSeen: '2026-11-24T09:00:00Z',
  resolvedAt: null,
};
const stale: StaleSource = {
  source: 'aws',
  label: h('AWS'),
  ageHours: 26,
  failedAt: '2026-12-02T08:00:00Z',
  kind: 'spend',
  error: h('error'),
};
const gpu: GpuFinding = {
  id: 'gpu.idle:i-1:2026-11-17T18:40:00.000Z',
  kind: 'gpu.idle',
  team,
  instanceId: h('i-1'),
  name: h('notebook'),
  instanceType: h('g5.2xlarge'),
  workload: h('notebook'),
  protected: false,
  since: '2026-11-17T18:40:00.000Z',
  idleMinutes: 680,
  burned: 13.76,
  perDay: 29.14,
  hourlyPrice: 1.2142,
  gpus: 1,
  stalledGpus: 0,
  missingMinutes: 0,
  description: h('idle since'),
  // A link whose URL is not http(s) is dropped by every renderer; the other one is kept as it is.
  links: [
    { label: h('GPU dashboard'), url: 'javascript:alert(1)' },
    {
      label: h('Open in AWS console'),
      url: 'https://us-east-1.console.aws.amazon.com/ec2/home?region=us-east-1#InstanceDetails:instanceId=i-1',
    },
  ],
};
const sweep: SweepFinding = {
  id: 'sweep.spend:t:s',
  kind: 'sweep.spend',
  team,
  sweep: h('lr-warmup'),
  cap: 150,
  value: 354.21,
  spend: 354.21,
  gpuHours: 710.7,
  windowHours: 168,
  perHour: 1.99,
  instances: [
    {
      instanceId: h('i-0a'),
      name: h('llm-sweep-0'),
      instanceType: 'g5.12xlarge',
      gpuCount: 4,
      hourlyPrice: 1.9937,
      protected: true,
      running: true,
      runningHours: 60,
      spend: 119.62,
      gpuHours: 240,
    },
  ],
};
const migration: SpotMigration = {
  id: 7,
  instanceId: h('i-9'),
  team,
  launchTemplate: h('lt-0a'),
  place: 'demo',
  monthlySaving: 5545.39,
  approvalsNeeded: 2,
  state: 'migrated',
  previousVersion: '1',
  spotVersion: '2',
  createdAt: new Date('2026-11-18T06:00:00Z'),
  migratedAt: new Date('2026-11-18T06:05:00Z'),
  revertedBy: USER,
  revertedAt: new Date('2026-11-19T10:00:00Z'),
  detail: h('detail'),
  changedAt: new Date('2026-11-18T06:05:00Z'),
  approvals: [{ approver: USER, at: new Date('2026-11-18T06:00:00Z') }],
};
const recommendation = {
  ...spot,
  name: h('train-fra'),
  team,
  evidence: [h('evidence')],
  current: { ...spot.current, instanceType: h('p4d') },
};
const figures: ReviewFigures = {
  team,
  teamName: h('Team'),
  month: '2026-11',
  currency: 'USD',
  spend: 170_269.91,
  budget: 150_000,
  previousMonth: '2026-10',
  previousSpend: 176_852.49,
  change: -0.037,
  forecast: { month: '2026-12', amount: 174_285.33, method: h('method') },
  idle: { cost: 4_878.49, share: 0.0287, gpuHours: 1_335.2, basis: h('basis') },
  untagged: { amount: 17_653.42, share: 0.061 },
  units: {
    experiment: { count: 6, total: 140_961.48, average: 23_493.58, top: { key: h('experiment'), cost: 82_973.6 } },
    run: { count: 65, total: 140_961.6, average: 2_168.64, top: { key: h('run'), cost: 10_058.91 } },
    sweep: { count: 0, total: 0, average: 0, top: null },
    perThousandPredictions: { predictions: 240_000_000, cost: 0.1875 },
  },
  showback: { team, teamName: h('Team'), direct: 170_269.91, shared: 10_989.26, total: 181_259.17, share: 0.62, budget: 150_000 },
  dataThrough: '2026-12-01T00:00:00Z',
};
const line: TrackedReviewLine = {
  key: h('key'),
  label: h('llm-node'),
  resourceId: h('i-0r'),
  service: h('Amazon EC2'),
  category: h('Compute'),
  pricing: 'Standard',
  cost: 36_546.31,
  instanceType: h('p5'),
  workload: h('training'),
  spotSaving: 22_606.79,
  recommendations: [{ ...rightSize, name: h('dan-notebook'), evidence: [h('evidence')] }],
  id: 101,
  team,
  month: '2026-11',
  rank: 1,
  answer: 'spot',
  answeredBy: USER,
  answeredAt: new Date('2026-12-01T17:00:00Z'),
  owner: 'U0OWNER',
  ownerBy: USER,
  ownerAt: new Date('2026-12-01T17:05:00Z'),
  remindedAt: null,
};
const people = [USER.slice(0, 60), 'U0OWNER'];
const status = {
  team,
  teamName: h('Team'),
  cadence: 'monthly' as const,
  period: { start: '2026-11-01', end: '2026-12-01' },
  budget: 60_000,
  currency: 'USD',
  actual: 49_210.5,
  forecast: 71_830.25,
  forecastMethod: h('method'),
};
const budgetLine = {
  origin: 'gcp' as const,
  name: h('budget'),
  team,
  period: 'monthly',
  amount: 40_000,
  currency: 'EUR',
  actual: 100,
  actualFrom: 'cloud' as const,
  forecast: null,
  thresholds: [90],
  drivesAlerts: false,
};

export const HOSTILE_MESSAGES: Record<string, Message> = {
  'budget alert': budgetAlert({
    finding,
    teamName: h('Team'),
    event: 'escalated',
    previousThreshold: 50,
    // An id that is not of Slack's shape is never made a mention: it is shown, escaped.
    acknowledged: { by: { id: USER, name: USER, group: false }, at: new Date('2026-11-20T09:00:00Z') },
  }),
  'budget alert snoozed': budgetAlert({
    finding,
    teamName: h('Team'),
    event: 'new',
    previousThreshold: null,
    snoozed: {
      by: { id: 'U0EVIL', name: USER, group: false },
      at: new Date('2026-11-20T09:00:00Z'),
      until: new Date('2026-11-27T09:00:00Z'),
    },
  }),
  'budget alert change': budgetAlertChange({ finding, teamName: h('Team'), event: 'escalated', previousThreshold: 50 }),
  'budget list': budgetListMessage({ budgets: [budgetLine], dataThrough: '2026-12-01T00:00:00Z', stale: [stale] }),
  'budget status': budgetStatusMessage([status], new Map([[team, 1]]), '2026-12-01T00:00:00Z', [stale]),
  'app home': appHome({
    userName: USER,
    statuses: [status],
    openFindings: [finding],
    sources: [],
    dataThrough: '2026-12-01T00:00:00Z',
    stale: [stale],
    editableTeams: [team],
  }),
  'error message': privateReply(h('problem'), h('hint')),
  'idle alert': idleAlert({
    teamName: h('Team'),
    items: [{ finding: gpu, note: `Kept running by ${USER}` }],
    dryRun: true,
    mode: 'notify',
  }),
  'proposed idle alert': proposedAlert(idleAlert({ teamName: h('Team'), items: [{ finding: gpu }], dryRun: false, mode: 'notify' }), {
    id: '7f1c2a9e-8d3b-4c55-9a10-2b7e4d6f8a01',
    action: 'stop',
    proposer: h('Carol'),
    instance: h('trainer-3'),
    figures: 'idle 14 h, $62.00/day',
    reason: h('reason'),
  }),
  'idle alert, workload stopped': idleAlert({
    teamName: h('Team'),
    items: [
      {
        finding: { ...gpu, instanceId: `k8s:${h('c')}/ns/Deployment/${h('w')}` },
        note: `Stopped by ${USER}`,
        settled: true,
        resumable: true,
      },
    ],
    dryRun: false,
    mode: 'notify',
  }),
  'idle status': idleStatus([gpu], h('scope')),
  recommendation: recommendationMessage(recommendation, { teamName: h('Team'), dryRun: false, secondApproverAbove: 5000 }),
  'recommendation list': recommendationList([recommendation], h('scope')),
  'review summary': reviewSummary(figures, 10),
  'review chart': reviewChart({ teamName: h('Team'), month: '2026-11', png: PIXEL, team: 't' }),
  'review line': reviewLine({ line, currency: 'USD', people, spot: { dryRun: false, secondApproverAbove: 1000 } }),
  'review reminder': reviewReminder({
    teamName: h('Team'),
    month: '2026-11',
    unanswered: [line],
    people: people.map((id) => ({ id, name: h(id), group: false })),
  }),
  'review close': reviewClose({ teamName: h('Team'), month: '2026-11', currency: 'USD', decisions: [{ line, saving: 1 }] }),
  'spend summary': spendSummary(
    {
      period: { start: '2026-11-01', end: '2026-12-01' },
      currency: 'USD',
      by: 'service',
      rows: [{ key: h('Amazon EC2'), billed: 10, effective: 9 }],
      total: { billed: 10, effective: 9 },
      dataThrough: '2026-12-01T00:00:00Z',
      warnings: [h('warning')],
    },
    h('scope'),
  ),
  'spot approval pending': spotApprovalPending(h('train-fra'), { ...migration, state: 'approving' }),
  'spot migrated': spotMigrated(h('train-fra'), migration, h('detail')),
  'spot reverted': spotReverted(
    h('train-fra'),
    { ...migration, state: 'reverted' },
    { id: USER, name: h('Eve'), group: false },
    h('detail'),
  ),
  'stale data notice': staleDataNotice({ teamName: h('Team'), stale: [stale] }),
  'unread inventory notice': unreadInventoryNotice(h('Team'), { source: h('source'), error: h('error') }),
  'sweep alert': sweepAlert({
    teamName: h('Team'),
    finding: sweep,
    dryRun: true,
    stopped: { by: { id: null, name: USER, group: false }, at: new Date('2026-11-18T06:00:00Z'), summary: h('1 stopped'), instances: [] },
  }),
  'team picker': teamPicker({
    instance: h('notebook'),
    teams: [{ id: 't1', name: h('Team') }],
    button: (id) => ({ action: `instance.reroute:${id}`, value: JSON.stringify({ to: id }) }),
  }),
};

/** The records the messages above are made of, for tests that fill them differently. */
export const MESSAGE_RECORDS = { finding, gpu, sweep, migration, line };
