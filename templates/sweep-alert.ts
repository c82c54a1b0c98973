import { formatMoney } from '../src/domain/money.js';
import type { SweepFinding } from '../src/domain/sweep-finding.js';
import { timeOf, type Block, type Mention, type Message } from './message.js';
import { ACTION_IDS } from '../src/domain/action-ids.js';

export const SWEEP_ACTIONS = { stop: ACTION_IDS.sweepStop, details: ACTION_IDS.findingDetails } as const;

export interface SweepAlertData {
  teamName: string;
  finding: SweepFinding;
  dryRun: boolean;
  /** The Stop sweep done: who, when, what came of it, and the instances it stopped; the button is then gone. */
  stopped?: { by: Mention; at: Date; summary: string; instances: readonly string[] } | null;
}

const money = (n: number) => formatMoney(n, 'USD');
const hours = (n: number) => `${Math.round(n * 10) / 10}`;
const windowText = (h: number) => (h % 24 === 0 ? `${h / 24} day${h === 24 ? '' : 's'}` : `${h} hours`);

/**
 * A sweep over its cap: what and how much first, short enough for a phone, then Stop sweep and
 * Details; its instances follow the buttons, and how the figures are counted is in sweepDetails.
 */
export function sweepAlert(data: SweepAlertData): Message {
  const f = data.finding;
  const headline = `${data.teamName}: sweep ${f.sweep} ran away (${capText(f)})`;
  // After Stop sweep the table shows what it stopped: those instances run no more.
  const stoppedNow = new Set(data.stopped?.instances ?? []);
  const isRunning = (i: (typeof f.instances)[number]) => i.running && !stoppedNow.has(i.instanceId);
  const running = f.instances.filter(isRunning);
  const perHour = data.stopped ? running.reduce((sum, i) => sum + i.hourlyPrice, 0) : f.perHour;
  const blocks: Block[] = [
    { type: 'header', text: headline },
    {
      type: 'text',
      text: `${running.length} of its ${f.instances.length} instances run now, at **${money(perHour)} per hour**.`,
    },
  ];
  const table: Block = {
    type: 'table',
    columns: [
      { label: 'Instance' },
      { label: 'Type' },
      { label: 'Now' },
      { label: 'GPU-hours', align: 'right' },
      { label: 'Spend', align: 'right' },
    ],
    rows: f.instances.map((i) => [
      i.name ?? i.instanceId,
      i.instanceType,
      stoppedNow.has(i.instanceId) ? 'stopped' : isRunning(i) ? (i.protected ? 'running (protected)' : 'running') : 'not running',
      hours(i.gpuHours),
      money(i.spend),
    ]),
  };
  const details = { action: SWEEP_ACTIONS.details, label: 'Details', value: JSON.stringify({ f: f.id }) };
  if (data.stopped)
    blocks.push(
      { type: 'mentions', lead: `Sweep stopped ${timeOf(data.stopped.at)} by`, people: [data.stopped.by] },
      { type: 'context', text: data.stopped.summary },
      { type: 'actions', buttons: [details] },
    );
  else
    blocks.push({
      type: 'actions',
      buttons: [
        {
          action: SWEEP_ACTIONS.stop,
          label: 'Stop sweep',
          value: JSON.stringify({ f: f.id }),
          style: 'danger',
          confirm: {
            title: `Stop sweep ${f.sweep}?`.slice(0, 100),
            text: `This stops its ${running.length} running instance(s), saving ${money(f.perHour)} per hour. Protected instances are left alone; disks stay.`,
            confirm: 'Stop sweep',
            deny: 'Cancel',
          },
        },
        details,
      ],
    });
  blocks.push(table, {
    type: 'context',
    text: data.dryRun
      ? 'Dry run: Stop sweep says what it would do and stops nothing until actions.enabled is true in burnrate.yml.'
      : 'Stop sweep stops its instances (their disks stay); team owners and approvers only.',
  });
  return { summary: headline, blocks };
}

/** "$123.40 spent, over its $80.00 cap": the figure the cap is on, against the cap. */
function capText(f: SweepFinding): string {
  return f.kind === 'sweep.spend'
    ? `${money(f.value)} spent, over its ${money(f.cap)} cap`
    : `${hours(f.value)} GPU-hours, over its ${hours(f.cap)} GPU-hour cap`;
}

/**
 * What the Details button answers for a sweep: its figures over the window against the cap, and how
 * they are counted (from the GPU metrics, not the bill, which lags a day) and what Stop sweep spares.
 */
export function sweepDetails(f: SweepFinding, teamName: string): Message {
  return {
    summary: `Details: ${teamName}, sweep ${f.sweep}`,
    blocks: [
      { type: 'text', text: `**${teamName}, sweep ${f.sweep}**: ${capText(f)}.` },
      {
        type: 'facts',
        facts: [
          { label: 'Window', value: `the last ${windowText(f.windowHours)}` },
          { label: 'Spend', value: money(f.spend) },
          { label: 'GPU-hours', value: hours(f.gpuHours) },
          {
            label: 'Running now',
            value: `${f.instances.filter((i) => i.running).length} of ${f.instances.length} instances, ${money(f.perHour)} per hour`,
          },
        ],
      },
      {
        type: 'context',
        text: `Counted from the GPU metrics of the instances tagged with the sweep, not from the bill (it lags a day): an instance's running hours are the times any of its GPUs reported, priced at its hourly rate; its GPU-hours count each GPU's samples. Stop sweep leaves protected instances running and keeps disks. finding ${f.id}`,
      },
    ],
  };
}
