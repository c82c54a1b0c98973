import { dimensionName, type AnomalyFinding, type AnomalyMatch, type ProviderAnomalyNote } from '../src/domain/anomaly-finding.js';
import { ACTION_IDS } from '../src/domain/action-ids.js';
import { formatMoney } from '../src/domain/money.js';
import { shortDate } from './freshness.js';
import { timeOf, type Block, type Button, type Mention, type Message } from './message.js';

/** Action ids of the buttons on an anomaly alert; the handlers live in src/actions/. */
export const ANOMALY_ACTIONS = {
  expected: ACTION_IDS.anomalyExpected,
  notExpected: ACTION_IDS.anomalyNotExpected,
  snooze: ACTION_IDS.budgetSnooze,
  stop: ACTION_IDS.instanceStop,
  stopSweep: ACTION_IDS.sweepStop,
  details: ACTION_IDS.findingDetails,
} as const;

export interface AnomalyAlertData {
  teamName: string;
  finding: AnomalyFinding;
  /** Back within its expected range (or accepted as Expected) on the latest run. */
  resolved: boolean;
  /** Who answered, as a mention (the finding keeps their id). */
  answeredBy?: Mention | null;
}

/** A further dimension's top driver is named in the line of why when it carries at least this share of the excess. */
const NAMED_SHARE = 0.5;

/**
 * One line of why: "+$4,210 vs usual: 78% from resource llm-sweep-17, 95% from service Amazon EC2,
 * 100% from region us-east-1": the top resource and service, then each further dimension's top
 * driver that carries most of the excess (account, region, usage type, Kubernetes workload).
 */
export function anomalyWhy(f: Pick<AnomalyFinding, 'excess' | 'currency' | 'drivers' | 'provider' | 'hourly'>): string {
  const money = (n: number) => formatMoney(n, f.currency);
  // A cloud's anomaly burnrate did not find: measured against the cloud's expected spend, not burnrate's usual.
  if (f.provider?.alone) return `+${money(f.excess)} vs expected by ${f.provider.label}`;
  const first = (['resource', 'service'] as const).flatMap((dimension) => f.drivers.find((d) => d.dimension === dimension) ?? []);
  const further = f.drivers.filter(
    (d, i, all) =>
      d.dimension !== 'resource' &&
      d.dimension !== 'service' &&
      d.share >= NAMED_SHARE &&
      all.findIndex((o) => o.dimension === d.dimension) === i,
  );
  const tops = [...first, ...further].map((d) => `${Math.round(d.share * 100)}% from ${dimensionName(d.dimension)} ${d.key}`);
  // An hourly anomaly's figures are over its hours, not a day: the lists and the review say so.
  const over = f.hourly ? ` over ${f.hourly.hours} hours` : '';
  return `+${money(f.excess)} vs usual${over}${tops.length ? `: ${tops.join(', ')}` : ''}`;
}

/**
 * A spend anomaly: what was spent against what was expected and what moved most, short enough for a
 * phone, the team's answer, and the buttons; the evidence (deviations, every driver, the cloud's own
 * view, caveats, what an Expected answer accepts) is one Details click away (anomalyDetails).
 */
export function anomalyAlert(data: AnomalyAlertData): Message {
  const f = data.finding;
  const money = (n: number) => formatMoney(n, f.currency);
  const when = shortDate(f.day);
  const alone = f.provider?.alone ? f.provider : null;
  const since = f.hourly ? timeOf(new Date(f.hourly.startedAt)) : null;
  const headline = data.resolved
    ? `✅ ${data.teamName}: spend anomaly of ${shortDate(f.started)} resolved`
    : alone
      ? `🔺 ${data.teamName}: ${alone.label}: +${money(f.excess)} vs expected since ${shortDate(f.started)}`
      : since
        ? `🔺 ${data.teamName}: GPU spend anomaly, +${money(f.excess)} vs usual since ${since}`
        : `🔺 ${data.teamName}: spend anomaly, +${money(f.excess)} vs usual on ${when}`;
  const spent = f.provisional ? `${money(f.actual)} so far` : money(f.actual);
  // The resource that moved most says what to look at (else the first dimension that moved); once
  // answered or resolved, what came of it takes its place.
  const lead = f.drivers.find((d) => d.dimension === 'resource') ?? f.drivers[0];
  const top =
    lead && !alone && !f.answer && !data.resolved
      ? `; ${Math.round(lead.share * 100)}% from ${dimensionName(lead.dimension)} ${lead.key}`
      : '';
  const blocks: Block[] = [
    { type: 'header', text: headline },
    {
      type: 'text',
      text: alone
        ? `**${money(f.actual)}** spent ${spanOf(f)} against **${money(f.expected)}** it expected.`
        : f.hourly
          ? `**${money(f.actual)}** on GPU machines in ${f.hourly.hours} hours, **${money(f.expected)}** usual${top}.`
          : `**${spent}** spent on ${when}, **${money(f.expected)}** expected${top}.`,
    },
  ];
  if (f.answer && data.answeredBy) {
    const verdict = f.answer.verdict === 'expected' ? 'Expected' : 'Not expected';
    blocks.push({ type: 'mentions', lead: `Answered ${verdict} ${timeOf(new Date(f.answer.at))} by`, people: [data.answeredBy] });
  }
  if (data.resolved)
    blocks.push({
      type: 'context',
      text: f.answer?.verdict === 'expected' ? 'Accepted as expected.' : 'Spend is back within its expected range.',
    });
  const details = { action: ANOMALY_ACTIONS.details, label: 'Details', value: JSON.stringify({ f: f.id }) };
  if (data.resolved || f.answer) blocks.push({ type: 'actions', buttons: [details] });
  else blocks.push(buttonsOf(f, details));
  // What would end it, where another check found it: a team that did not expect it stops it here.
  if (!data.resolved && f.answer?.verdict !== 'expected' && f.matches?.length) blocks.push(stopButtonsOf(f.matches));
  return { summary: headline, blocks };
}

/** "on 3 Dec" or "from 1 Dec to 3 Dec": the days an anomaly covers. */
function spanOf(f: Pick<AnomalyFinding, 'started' | 'day'>): string {
  return f.started === f.day ? `on ${shortDate(f.day)}` : `from ${shortDate(f.started)} to ${shortDate(f.day)}`;
}

/**
 * What the Details button answers for an anomaly: the figures against the expected value and how far
 * beyond it, every dimension that moved, the cloud's own anomaly, the caveats (new charges, a day still
 * filling in, short history, hour-by-hour figures), the resources other checks found, and what an
 * Expected answer accepts from now on.
 */
export function anomalyDetails(f: AnomalyFinding, teamName: string): Message {
  const money = (n: number) => formatMoney(n, f.currency);
  const when = shortDate(f.day);
  const alone = f.provider?.alone ? f.provider : null;
  const spent = f.provisional ? `${money(f.actual)} so far` : money(f.actual);
  const blocks: Block[] = [
    {
      type: 'text',
      text: alone
        ? `**${teamName}**: ${alone.label}: **${money(f.actual)}** spent ${spanOf(f)} against **${money(f.expected)}** it expected. ${rootCausesOf(alone, money)}`
        : f.hourly
          ? `**${teamName}**: **${money(f.actual)}** spent on GPU machines in the ${f.hourly.hours} hours since ${timeOf(new Date(f.hourly.startedAt))} against **${money(f.expected)}** usual for those hours (${f.deviations} robust deviations above in the latest); at this rate +${money(f.hourly.perDay)} a day. ${anomalyWhy(f)}.`
          : `**${teamName}**: **${spent}** spent on ${when} against **${money(f.expected)}** expected (${f.deviations} robust deviations above). ${anomalyWhy(f)}. Started ${shortDate(f.started)}.`,
    },
  ];
  if (f.provider && !alone)
    blocks.push({
      type: 'context',
      text: `${f.provider.label} found it too (since ${shortDate(f.provider.start)}, +${money(f.provider.impact)}). ${rootCausesOf(f.provider, money)} ${sentence(feedbackNote(f.provider))}`,
    });
  else if (alone)
    blocks.push({
      type: 'context',
      text: `Found by ${alone.label}, not by burnrate's own rules; ${feedbackNote(alone)}`,
    });
  if (f.drivers.length > 0)
    blocks.push({
      type: 'table',
      columns: [
        { label: 'What moved' },
        { label: when, align: 'right' },
        { label: 'Usual day', align: 'right' },
        { label: 'Rise', align: 'right' },
      ],
      rows: f.drivers.map((d) => [
        `${dimensionName(d.dimension)} ${d.key}`,
        money(d.amount),
        money(d.usual),
        `+${money(d.delta)} (${Math.round(d.share * 100)}%)`,
      ]),
    });
  const notes = [
    f.newCharges > 0 ? `${money(f.newCharges)} of it is a one-off or monthly charge with none like it in the month before.` : null,
    f.hourly
      ? `Found hour by hour from the GPU machines' metrics (each at its hourly rate) through ${timeOf(new Date(f.hourly.through))}, before the day's bill; the bill's figures replace these once it has the day.`
      : f.provisional
        ? `${when} is the data's last day and still filling in: its amount can only grow.`
        : null,
    f.shortHistory ? `Judged on ${f.historyDays} days of history only (under 14: no weekday profile or trend yet).` : null,
  ].filter((n): n is string => n !== null);
  if (notes.length > 0) blocks.push({ type: 'context', text: notes.join(' ') });
  if (f.matches?.length)
    blocks.push({ type: 'context', text: `On the resources that moved: ${f.matches.map((m) => m.label).join(', ')}.` });
  if (f.answer?.accepted)
    blocks.push({
      type: 'context',
      text: `From now on a rise of up to ${money(f.answer.accepted.delta)} a day in ${dimensionName(f.answer.accepted.dimension)} ${f.answer.accepted.key} is taken as expected.${f.answer.reason ? ` Reason: ${f.answer.reason}` : ''}`,
    });
  blocks.push({ type: 'context', text: `finding ${f.id}` });
  return { summary: `Details: ${teamName}, spend anomaly of ${shortDate(f.started)}`, blocks };
}

/** Where an answer goes: to the provider as feedback, or (its API takes none) nowhere but burnrate. */
function feedbackNote(note: ProviderAnomalyNote): string {
  return note.noFeedback ? 'its API takes no feedback, so an answer here stays in burnrate.' : 'an answer here is sent to it as feedback.';
}

const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Most root causes a message names (the provider lists them largest first). */
const ROOT_CAUSES_SHOWN = 3;

/** "Root causes: service Amazon SageMaker, account ml-prod, region us-east-1, usage type USE1-ml.p5.48xlarge (+$3,283.80)." */
function rootCausesOf(note: ProviderAnomalyNote, money: (n: number) => string): string {
  const causes = [...note.rootCauses]
    .sort((a, b) => (b.contribution ?? 0) - (a.contribution ?? 0))
    .slice(0, ROOT_CAUSES_SHOWN)
    .map((c) => {
      const named = [
        c.service && `service ${c.service}`,
        c.account && `account ${c.account}`,
        c.region && `region ${c.region}`,
        c.usageType && `usage type ${c.usageType}`,
      ].filter(Boolean);
      return `${named.join(', ') || 'unnamed'}${c.contribution === null ? '' : ` (+${money(c.contribution)})`}`;
    });
  return causes.length ? `Root causes: ${causes.join('; ')}.` : 'No root cause given.';
}

function buttonsOf(f: AnomalyFinding, details: Button): Block {
  const value = (extra: object = {}) => JSON.stringify({ f: f.id, ...extra });
  return {
    type: 'actions',
    buttons: [
      { action: ANOMALY_ACTIONS.expected, label: 'Expected', value: value(), style: 'primary' },
      { action: ANOMALY_ACTIONS.notExpected, label: 'Not expected', value: value(), style: 'danger' },
      details,
    ],
    select: {
      action: ANOMALY_ACTIONS.snooze,
      placeholder: 'Snooze…',
      options: [
        { label: 'Snooze 24 h', value: value({ for: '24h' }) },
        { label: 'Snooze 7 days', value: value({ for: '7d' }) },
      ],
    },
  };
}

/** Stop sweep or Stop for each matching finding; the handlers re-check, authorise and audit as from their own alerts. */
function stopButtonsOf(matches: readonly AnomalyMatch[]): Block {
  return {
    type: 'actions',
    buttons: matches.slice(0, 4).map((m) => ({
      action: `${m.kind === 'sweep' ? ANOMALY_ACTIONS.stopSweep : ANOMALY_ACTIONS.stop}:${m.findingId}`.slice(0, 250),
      label: `Stop ${m.label.replace(/^idle instance /, '')}`.slice(0, 75),
      value: JSON.stringify({ f: m.findingId }),
      style: 'danger' as const,
      confirm: {
        title: `Stop ${m.label}?`.slice(0, 100),
        text: 'It is on the resources that moved. Protected instances are left alone; disks stay.',
        confirm: 'Stop',
        deny: 'Cancel',
      },
    })),
  };
}
