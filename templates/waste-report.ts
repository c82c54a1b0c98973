import { formatMoney, formatPercent } from '../src/domain/money.js';
import { BENCHMARK_SHARES, type CommitmentReport, type TeamWaste, type WasteDiagnosis } from '../src/domain/waste.js';
import { wasteHeadline } from '../src/domain/waste-headline.js';
import { chartBlocks } from './chart-blocks.js';
import type { Block, Button, Message, PlotBlock } from './message.js';
import type { StaticPool } from '../src/domain/kube-usage.js';
import type { UnreadInventory } from '../src/domain/inventory-read.js';
import { notCheckedBlocks, unreadSources } from './unread-inventory-notice.js';

export interface WasteReportData {
  /** The diagnosis the rows come from: its period, currency and notes. */
  diagnosis: Pick<WasteDiagnosis, 'period' | 'currency' | 'notes'> & Partial<Pick<WasteDiagnosis, 'staticCapacity' | 'unavailable'>>;
  /** The rows to show: one team, some teams, or the organisation. */
  rows: readonly TeamWaste[];
  /** The stacked-bar chart (base64 PNG), when one was drawn. */
  chartPng?: string;
  /** The same chart as numbers, for a platform that draws its own (the PNG, if any, then its fallback). */
  chartPlot?: PlotBlock;
  /** Cloud actions are dry runs: the spot button says so in its confirm dialog. */
  dryRun: boolean;
  /** The commitments section (the organisation's coverage, what ends soon, always-on capacity of the rows' teams); none in a review. */
  commitments?: CommitmentReport;
}

/** What the diagnosis does without an inventory source's machines. */
export const UNREAD_WASTE =
  'Its machines are unknown until it answers: those burnrate can tie to the bill count in the GPU spend, in no cause; the others are not in these figures.';

/** ", of which $40.00 no GPU metrics saw and $30.00 not checked (…)": the spend in the total that no cause can hold, and why. */
function uncausedOf(row: TeamWaste, money: (n: number) => string, unread: readonly UnreadInventory[]): string {
  const parts = [
    row.unmeasured > 0 ? `${money(row.unmeasured)} no GPU metrics saw` : null,
    row.unchecked > 0 && unread.length > 0 ? `${money(row.unchecked)} not checked (${unreadSources(unread)})` : null,
  ].filter((p) => p !== null);
  return parts.length > 0 ? `, of which ${parts.join(' and ')} (in the spend, in no cause)` : '';
}

/** "Nov 1–30" style period text: the diagnosis's own days. */
function periodText(period: WasteDiagnosis['period']): string {
  const last = new Date(Date.parse(`${period.end}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
  return `${period.start} to ${last}${period.scaledToMonth ? ` (${period.days} days, scaled to a month)` : ''}`;
}

/**
 * The waste diagnosis as a message: per team, GPU spend, waste by cause (each on what the causes
 * before it left, so nothing counts twice), the immediate and after-fix totals beside what ML
 * teams usually get back, and the first thing to do about each cause.
 */
export function wasteReport(data: WasteReportData): Message {
  const { diagnosis } = data;
  const money = (n: number) => formatMoney(n, diagnosis.currency);
  const scope = data.rows.length === 1 ? data.rows[0]!.teamName : 'your teams';
  const { waste, spend } = wasteHeadline(data.rows);
  const headline =
    spend > 0
      ? `GPU waste, ${scope}: ${money(waste)} of ${money(spend)} a month (${formatPercent(waste / spend)})`
      : `GPU waste, ${scope}: no GPU spend on the bill for this period`;
  const blocks: Block[] = [
    { type: 'header', text: headline },
    { type: 'context', text: `Read-only diagnosis of ${periodText(diagnosis.period)}. Nothing was changed.` },
  ];
  for (const row of data.rows) blocks.push(...teamBlocks(row, money, data.dryRun, diagnosis.unavailable ?? []));
  blocks.push(...notCheckedBlocks(diagnosis.unavailable ?? [], UNREAD_WASTE));
  if (data.commitments) blocks.push(...commitmentBlocks(data.commitments, money));
  blocks.push(...staticCapacityBlocks(diagnosis.staticCapacity ?? []));
  blocks.push(
    ...chartBlocks(
      {
        title: `GPU spend and waste a month, ${scope}`,
        alt: `Stacked bars of each team's GPU spend a month, split by waste cause, the rest in grey`,
        filename: 'burnrate-waste.png',
      },
      { png: data.chartPng ?? null, plot: data.chartPlot ?? null },
    ),
  );
  blocks.push({
    type: 'context',
    text: [
      ...diagnosis.notes,
      'Immediate: idle, stalled, spot-ready (a Stop or an approval). After fixes: all causes. Money from the bill (effective cost), shares from the GPU metrics. `burnrate waste --json` has every figure.',
    ].join(' '),
  });
  return { summary: headline, blocks };
}

function teamBlocks(row: TeamWaste, money: (n: number) => string, dryRun: boolean, unread: readonly UnreadInventory[]): Block[] {
  const share = (n: number) => (row.gpuSpend > 0 ? formatPercent(n / row.gpuSpend) : '0%');
  const [immLo, immHi] = BENCHMARK_SHARES.immediate;
  const [fixLo, fixHi] = BENCHMARK_SHARES.afterFixes;
  const blocks: Block[] = [
    { type: 'divider' },
    {
      type: 'text',
      text: `**${row.teamName}**: GPU spend ${money(row.gpuSpend)} a month${uncausedOf(row, money, unread)}`,
    },
    {
      type: 'facts',
      facts: [
        { label: 'Immediate', value: `${money(row.immediate)} (${share(row.immediate)}; ML teams typically ${pct(immLo)}–${pct(immHi)})` },
        { label: 'After fixes', value: `${money(row.afterFixes)} (${share(row.afterFixes)}; typically ${pct(fixLo)}–${pct(fixHi)})` },
      ],
    },
  ];
  const found = row.categories.filter((c) => c.monthly > 0);
  if (found.length === 0) {
    blocks.push({ type: 'context', text: 'No waste found in this period.' });
    return blocks;
  }
  blocks.push({
    type: 'table',
    columns: [{ label: 'Cause' }, { label: 'A month', align: 'right' }, { label: 'Share', align: 'right' }, { label: 'Confidence' }],
    rows: found.map((c) => [c.label, money(c.monthly), formatPercent(c.share), c.confidence]),
  });
  const buttons: Button[] = [];
  for (const c of found) {
    if (!c.firstAction) continue;
    blocks.push({ type: 'text', text: `**${c.label}**: ${c.firstAction.text}` });
    const button = c.firstAction.button;
    if (button)
      buttons.push({
        ...button,
        style: 'primary',
        confirm: {
          title: 'Approve spot migration?',
          text: dryRun
            ? 'Dry run: burnrate checks readiness and says what it would change; nothing changes until actions.enabled is true.'
            : 'Its launch template gets a new default version requesting spot capacity; the next launch runs on spot. Revert to on-demand undoes it.',
          confirm: 'Approve',
          deny: 'Cancel',
        },
      });
  }
  if (buttons.length > 0) blocks.push({ type: 'actions', buttons });
  return blocks;
}

const pct = (n: number) => `${Math.round(n * 100)}%`;

/**
 * Kubernetes node pools that never scaled to zero while their GPUs waited: the pools are shared by
 * teams, so they are the organisation's, each with the setting to change. List prices in USD.
 */
function staticCapacityBlocks(pools: readonly StaticPool[]): Block[] {
  if (pools.length === 0) return [];
  const usd = (n: number) => formatMoney(n, 'USD');
  return [
    { type: 'divider' },
    {
      type: 'text',
      text: `**Static GPU capacity**: ${pools.length} Kubernetes node pool${pools.length === 1 ? '' : 's'} never scaled to zero`,
    },
    {
      type: 'table',
      columns: [
        { label: 'Pool' },
        { label: 'Nodes held' },
        { label: 'Unrequested GPU-h', align: 'right' },
        { label: 'Off-hours a month', align: 'right' },
      ],
      rows: pools.map((p) => [
        `${p.cluster}/${p.pool}`,
        p.minNodes === p.maxNodes ? String(p.minNodes) : `${p.minNodes}–${p.maxNodes}`,
        `${p.idleGpuHours} of ${p.gpuHours}`,
        usd(p.offHoursMonthly),
      ]),
    },
    ...pools.map((p): Block => ({ type: 'context', text: `${p.cluster}/${p.pool}: ${p.setting}` })),
  ];
}

/** Coverage and utilisation of GPU commitments, those ending soon, and the always-on capacity a commitment would suit. */
function commitmentBlocks(report: CommitmentReport, money: (n: number) => string): Block[] {
  const blocks: Block[] = [
    { type: 'divider' },
    { type: 'text', text: '**Commitments for GPU instances**' },
    {
      type: 'facts',
      facts: [
        {
          label: 'Coverage',
          value: report.coverage === null ? 'no on-demand GPU spend to cover' : `${pct(report.coverage)} of eligible on-demand spend`,
        },
        {
          label: 'Utilisation',
          value: report.utilisation === null ? 'no commitment covers a GPU instance' : `${pct(report.utilisation)} of the commitment used`,
        },
      ],
    },
    { type: 'context', text: `Coverage: ${report.coverageBasis}.` },
  ];
  for (const c of report.commitments.filter((x) => report.expiring.includes(x.id)))
    blocks.push({
      type: 'text',
      text: `**Ends in ${c.daysLeft} days** (${c.endsOn}): ${c.id}, ${money(c.usedMonthly)} a month of GPU usage covered (${pct(c.utilisation)} used). Decide on renewal before then.`,
    });
  const top = report.alwaysOn.slice(0, 5);
  if (top.length > 0)
    blocks.push({
      type: 'table',
      columns: [
        { label: 'Always on, on demand' },
        { label: 'Runs', align: 'right' },
        { label: 'A month', align: 'right' },
        { label: 'Commitment saves', align: 'right' },
        { label: 'Spot saves', align: 'right' },
      ],
      // Both on the same running hours, the commitment paid for every hour: the advice takes the larger.
      rows: top.map((a) => [
        a.name ?? a.instanceId,
        pct(a.runningShare),
        money(a.monthly),
        a.commitmentSaving === null || a.commitmentSaving <= 0 ? '—' : money(a.commitmentSaving),
        a.spotSaving === null ? '—' : money(a.spotSaving),
      ]),
    });
  return blocks;
}
