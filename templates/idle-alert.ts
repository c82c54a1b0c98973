import type { GpuMode } from '../src/config/schema.js';
import { instanceLabel, stopSavingPerDay, stopSavingWords, unpriced, type GpuFinding } from '../src/domain/gpu-finding.js';
import { formatMoney } from '../src/domain/money.js';
import { notebookCullingLine } from './notebook-culling.js';
import { resourceLabel } from '../src/domain/resource-label.js';
import { personIn, timeOf, type Block, type Mention, type Message } from './message.js';
import { ACTION_IDS, SURFACE_ACTION_IDS } from '../src/domain/action-ids.js';
import { workloadRefOf } from '../src/domain/kubernetes.js';
import type { StopWording } from '../src/domain/stop-wording.js';

/** Action ids of the buttons on an idle-GPU alert; the handlers live in src/actions/. */
export const IDLE_ACTIONS = {
  stop: ACTION_IDS.instanceStop,
  keep: ACTION_IDS.instanceKeep,
  reroute: ACTION_IDS.instanceReroute,
  resume: ACTION_IDS.workloadResume,
  details: ACTION_IDS.findingDetails,
} as const;

export interface IdleAlertItem {
  finding: GpuFinding;
  /** What people did about it ("Kept running by … until …", "Stopped by … at …"); null when nothing yet. */
  note?: string | null;
  /** Stopped, kept or handed to another team: the buttons are gone. */
  settled?: boolean;
  /** A Kubernetes workload burnrate scaled to zero: Resume brings it back as it was. */
  resumable?: boolean;
  /** Mode auto: when burnrate stops it unless someone clicks Keep. */
  autoStopAt?: Date | null;
  /** What Stop does where its cloud says it is not a plain stop (an Azure VM is deallocated): the confirmation says so. */
  stopWording?: StopWording;
}

export interface IdleAlertData {
  teamName: string;
  items: IdleAlertItem[];
  /** Cloud actions are dry runs (actions.enabled is false). */
  dryRun: boolean;
  /** approve: only approvers stop ("Approve stop"); auto: each instance's automatic stop is announced. */
  mode: GpuMode;
  /** Instances of no team: admins act on them and anyone may hand them to their team. */
  unowned?: boolean;
  /** Sent because someone of another team clicked "Not ours": who, from which team, when. */
  handedOver?: { instance: string; by: Mention; from: string; at: Date };
}

const money = (n: number) => formatMoney(n, 'USD');

/**
 * The copy of an idle alert sent to the person an instance's `burnrate:owner` tag names, by direct
 * message: the same lines and buttons, and where the team's own copy is.
 */
export function ownerIdleAlert(alert: Message, teamName: string): Message {
  return {
    summary: `Your GPU instance is idle: ${alert.summary}`,
    blocks: [
      {
        type: 'text',
        text: `You own these instances (their **burnrate:owner** tag names you). The same alert is in ${teamName}'s channel.`,
      },
      ...alert.blocks,
    ],
  };
}

/** One message per team and run: each idle or stalled instance with what it burned and its buttons. */
export function idleAlert(data: IdleAlertData): Message {
  const open = data.items.filter((i) => !i.settled);
  const burned = open.reduce((sum, i) => sum + i.finding.burned, 0);
  // What stopping them would save: prepaid capacity costs the same running or not, a Savings Plan's share too.
  const perDay = open.reduce((sum, i) => sum + stopSavingPerDay(i.finding), 0);
  // Nothing to promise when every instance is prepaid, wholly covered by a plan or without a price.
  const savable = open.length === 0 || open.some((i) => !i.finding.prepaid && (i.finding.covered?.share ?? 0) < 1 && !unpriced(i.finding));
  const noPrice = open.filter((i) => unpriced(i.finding)).length;
  const count = data.items.length;
  const headline = `${data.teamName}: ${count} idle GPU instance${count === 1 ? '' : 's'}`;
  const blocks: Block[] = [
    { type: 'header', text: headline },
    {
      type: 'text',
      text:
        open.length === 0
          ? 'Every instance of this alert has been stopped or kept running.'
          : `**${money(burned)}** burned while idle so far${savable ? `; **${money(perDay)} per day** while they keep running` : ''}${noPrice > 0 ? ` (${noPrice} without a price, not counted)` : ''}.`,
    },
  ];
  if (data.handedOver) {
    const { by, from, at } = data.handedOver;
    blocks.push({
      type: 'context',
      text: `Handed over by ${personIn(by)} of ${from} ${timeOf(at)}: not theirs.`,
    });
  }
  for (const item of data.items) {
    blocks.push({ type: 'divider' }, { type: 'text', text: lineOf(item.finding) });
    if (item.note) blocks.push({ type: 'context', text: item.note });
    if (item.settled) {
      // Its buttons are gone; what it did while idle stays one click away (and Resume, for a workload burnrate scaled to zero).
      const value = JSON.stringify({ f: item.finding.id });
      blocks.push({
        type: 'actions',
        buttons: [
          ...(item.resumable ? [{ action: IDLE_ACTIONS.resume, label: 'Resume', value }] : []),
          { action: IDLE_ACTIONS.details, label: 'Details', value },
        ],
      });
      continue;
    }
    if (item.autoStopAt)
      blocks.push({ type: 'context', text: `Stops automatically at ${timeOf(item.autoStopAt)} unless someone clicks Keep.` });
    blocks.push(buttonsOf(item, data));
  }
  blocks.push({
    type: 'context',
    text: data.dryRun
      ? 'Dry run: Stop now says what it would do and stops nothing until actions.enabled is true in burnrate.yml.'
      : 'Stop now stops the instance (its disks and data stay); Keep leaves it running and silences it until then.',
  });
  return { summary: savable ? `${headline} (${money(perDay)} per day)` : headline, blocks };
}

/**
 * "**train-a100-3** (p4d.24xlarge): idle since 19:40 yesterday · **$412.00** burned · $786.48 per day":
 * what and how much, short enough for a phone; how it is known and its caveats are in idleDetails.
 */
export function lineOf(f: GpuFinding): string {
  const since = sinceOf(f);
  const what = f.kind === 'gpu.stalled' ? `stalled ${f.stalledGpus}/${f.gpus} GPUs, ${since.replace(/^idle /, '')}` : since;
  const workload = workloadRefOf(f.instanceId);
  // A workload: what it is, how many GPUs it holds (a stalled one says so in "stalled 2/8 GPUs") and on what machine.
  const gpus = workload && f.kind !== 'gpu.stalled' ? `, ${f.gpus === 1 ? '1 GPU' : `${f.gpus} GPUs`}` : '';
  const kind = workload ? `${workload.kind}${gpus} on ${f.instanceType}` : f.instanceType;
  if (unpriced(f) && !f.prepaid)
    return [
      `**${instanceLabel(f)}** (${kind}): ${what}`,
      'price unknown: no saving promised',
      ...(f.protected ? ['protected: never stopped'] : []),
    ].join(' · ');
  const parts = [
    `**${instanceLabel(f)}** (${kind}): ${what}`,
    `**${money(f.burned)}** burned`,
    f.prepaid
      ? 'prepaid: stopping saves nothing'
      : f.covered
        ? `covered by a ${f.covered.by}: stopping saves only the uncovered ${money(f.covered.uncoveredPerDay)}/day`
        : `${money(f.perDay)} per day`,
  ];
  if (f.protected) parts.push('protected: never stopped');
  return parts.join(' · ');
}

/**
 * What the Details button answers for one instance: the whole description with its caveats, the
 * figures behind "idle", how the amounts are computed, and why it is protected or prepaid.
 */
export function idleDetails(f: GpuFinding): Message {
  const hours = f.idleMinutes / 60;
  const lines = [
    evidenceLine(f),
    f.kind === 'gpu.stalled' ? `Stalled: ${f.stalledGpus} of ${f.gpus} GPUs hold memory but compute nothing.` : null,
    f.missingMinutes > 0 ? `${f.missingMinutes} min of it had no GPU metrics and count as idle (gpu.idle.missing).` : null,
    f.prepaid
      ? `Prepaid${f.prepaid.until ? ` until ${timeOf(new Date(f.prepaid.until))}` : ''}: stopping saves nothing; put work on it, or release it at the end.`
      : null,
    f.covered
      ? `${Math.round(f.covered.share * 100)}% of its billed cost is ${coveredLine(f.covered)}. The ${f.covered.by} is paid whether the instance runs or not.`
      : null,
    f.protected ? `Protected (${protectionOf(f)}): never stopped by burnrate.` : null,
    notebookCullingLine(f),
    unpriced(f)
      ? 'No price: neither the bill nor the price catalog prices it yet, so what it burned is unknown, not zero.'
      : `Burned is ${money(f.hourlyPrice)} an hour × ${hours.toFixed(1)} h idle; per day is 24 hours of it.`,
  ];
  return {
    summary: `Details: ${instanceLabel(f)}`,
    blocks: [
      { type: 'text', text: `**${resourceLabel(f.instanceId, f.name)}** (${kindOf(f)}): ${f.description}` },
      {
        type: 'facts',
        facts: [
          { label: 'Idle since', value: timeOf(new Date(f.since)) },
          { label: 'Burned while idle', value: unpriced(f) ? 'unknown' : money(f.burned) },
          { label: 'Costs', value: unpriced(f) ? 'unknown: no price' : `${money(f.hourlyPrice)} an hour, ${money(f.perDay)} a day` },
        ],
      },
      ...lines.filter((line): line is string => line !== null).map((text): Block => ({ type: 'context', text })),
    ],
  };
}

/** "covered by a Savings Plan: stopping frees the plan for other usage; it saves only the uncovered $12.00/day". */
function coveredLine(covered: NonNullable<GpuFinding['covered']>): string {
  const what = covered.by === 'Savings Plan' ? 'the plan' : `the ${covered.by}`;
  return `covered by a ${covered.by}: stopping frees ${what} for other usage; it saves only the uncovered ${money(covered.uncoveredPerDay)}/day`;
}

/** "idle since 19:40 yesterday": the description without the caveats it carries in parentheses (idleDetails shows them). */
function sinceOf(f: GpuFinding): string {
  return f.description.split(' (')[0]!;
}

/** "p4d.24xlarge", or a workload's "Deployment, 2 GPUs on p4d.24xlarge". */
function kindOf(f: GpuFinding): string {
  const workload = workloadRefOf(f.instanceId);
  return workload ? `${workload.kind}, ${f.gpus === 1 ? '1 GPU' : `${f.gpus} GPUs`} on ${f.instanceType}` : f.instanceType;
}

/** The figures behind "idle": "GPUs while idle: 0.4% busy on average (at most 3%), 1.2 GiB memory in use, 61 W each". */
export function evidenceLine(f: GpuFinding): string | null {
  const e = f.evidence;
  if (!e) return null;
  const parts = [
    ...(e.utilMeanPct !== null ? [`${e.utilMeanPct}% busy on average (at most ${e.utilMaxPct}%)`] : []),
    ...(e.memUsedGiB !== null ? [`${e.memUsedGiB} GiB memory in use`] : []),
    ...(e.powerWattsPerGpu !== null ? [`${e.powerWattsPerGpu} W each`] : []),
  ];
  return parts.length > 0 ? `GPUs while idle: ${parts.join(', ')}` : null;
}

/** Why a protected instance or workload is never stopped. */
export function protectionOf(f: Pick<GpuFinding, 'instanceId'>): string {
  const workload = workloadRefOf(f.instanceId);
  if (!workload) return 'burnrate:protect=true';
  return workload.kind === 'Pod' ? 'a pod without a controller, never deleted' : 'burnrate.io/protect: "true" on it or its namespace';
}

function buttonsOf({ finding: f, stopWording }: IdleAlertItem, data: IdleAlertData): Block {
  const saving = stopSavingWords(f);
  const value = (extra: object = {}) => JSON.stringify({ f: f.id, ...extra });
  const name = instanceLabel(f);
  const workload = workloadRefOf(f.instanceId);
  return {
    type: 'actions',
    buttons: [
      {
        action: IDLE_ACTIONS.stop,
        label: data.mode === 'approve' ? 'Approve stop' : 'Stop now',
        value: value(),
        style: 'danger',
        confirm: {
          title: `Stop ${name}?`.slice(0, 100),
          text: workload
            ? `This scales ${workload.kind} ${name} to zero (or suspends it), saving ${money(f.perDay)} per day. Resume brings it back as it was; the node and other pods are not touched.`
            : stopWording
              ? // The cloud's wording names the kind of machine in place of its id.
                `This ${stopWording.verb} ${name}, ${saving}: ${stopWording.why}. Its disks stay; it can be started again.`
              : `This stops ${name} (${f.instanceId}), ${saving}. Its disks stay; it can be started again.`,
          confirm: 'Stop it',
          deny: 'Cancel',
        },
      },
      { action: `${IDLE_ACTIONS.keep}:4h`, label: 'Keep 4 h', value: value({ for: '4h' }) },
      { action: `${IDLE_ACTIONS.keep}:workday`, label: 'Keep until next working day', value: value({ for: 'workday' }) },
      { action: IDLE_ACTIONS.reroute, label: data.unowned ? 'Ours: pick the team' : 'Not ours', value: value() },
      { action: IDLE_ACTIONS.details, label: 'Details', value: value() },
      ...(f.links ?? []).map((link, i) => ({ action: `${SURFACE_ACTION_IDS.link}:${i}`, label: link.label, value: '', url: link.url })),
    ],
  };
}
