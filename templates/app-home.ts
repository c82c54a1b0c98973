import type { BudgetStatus } from '../src/checks/budget/budget-status.js';
import type { TrackedFinding } from '../src/domain/finding.js';
import { formatMoney, formatPercent } from '../src/domain/money.js';
import type { SourceFreshness } from '../src/domain/source-freshness.js';
import type { StaleSource } from '../src/domain/staleness.js';
import { budgetStatusMessage } from './budget-status.js';
import type { Block, Message } from './message.js';
import { SURFACE_ACTION_IDS } from '../src/domain/action-ids.js';
import type { TeamWaste, WasteDiagnosis } from '../src/domain/waste.js';
import type { SavingsSummary } from '../src/domain/saving.js';
import { leftOutSuffix } from './savings-left-out.js';

export interface HomeData {
  userName: string;
  statuses: BudgetStatus[];
  openFindings: TrackedFinding[];
  sources: SourceFreshness[];
  dataThrough: string | null;
  /** Sources whose last refresh failed, said beside the figures. */
  stale?: StaleSource[];
  /** Teams whose budget this user may edit (approvers, admins). */
  editableTeams: string[];
  /** This month's savings ledger of the user's teams. */
  savings?: SavingsSummary;
  /** Open alerts of every kind per team (the budget table's "Alerts"); absent: the budget alerts are counted. */
  alertCounts?: ReadonlyMap<string, number>;
  /** The last 30 days' waste of the user's teams; null without GPU metrics. */
  waste?: (Pick<WasteDiagnosis, 'period' | 'currency' | 'notes'> & { rows: TeamWaste[] }) | null;
}

/** A user's dashboard: their teams against budget, what is open, and how fresh the data is. */
export function appHome(data: HomeData): Message {
  // Alerts of every kind where the caller counted them (budget, idle GPUs, sweeps, anomalies); else the budget's.
  const open = new Map<string, number>(data.alertCounts ?? []);
  if (!data.alertCounts) for (const f of data.openFindings) open.set(f.team, (open.get(f.team) ?? 0) + 1);
  const blocks: Block[] = [
    { type: 'header', text: `burnrate — ${data.userName}` },
    ...budgetStatusMessage(data.statuses, open, data.dataThrough, data.stale ?? [], 'cards').blocks.filter((b) => b.type !== 'header'),
  ];
  if (data.editableTeams.length > 0) {
    blocks.push({
      type: 'actions',
      buttons: data.editableTeams.map((team, i) => ({
        action: i === 0 ? SURFACE_ACTION_IDS.budgetEdit : `${SURFACE_ACTION_IDS.budgetEdit}:${i}`,
        label: `Edit budget of ${team}`,
        value: team,
      })),
    });
  }
  if (data.waste && data.waste.rows.length > 0) blocks.push(...wasteCard(data.waste));
  if (data.savings && data.savings.actions > 0) {
    const saved = (n: number) => formatMoney(n, data.savings!.currency);
    blocks.push({
      type: 'text',
      text: `**Saved by burnrate actions this month**: ${saved(data.savings.realised)} confirmed by the bill, ${saved(data.savings.expected)} expected (${data.savings.actions} action${data.savings.actions === 1 ? '' : 's'}).${leftOutSuffix(data.savings)}`,
    });
  }
  blocks.push({ type: 'divider' }, { type: 'header', text: 'Open alerts' });
  if (data.openFindings.length === 0)
    blocks.push({ type: 'text', text: 'Nothing open. burnrate will post in your team channels when a threshold is crossed.' });
  else {
    blocks.push({
      type: 'table',
      columns: [{ label: 'Team' }, { label: 'Alert' }, { label: 'Amount', align: 'right' }],
      rows: data.openFindings.map((f) => [
        f.team,
        `${f.kind === 'budget.forecast' ? 'forecast' : 'spent'} ≥ ${f.threshold}% (${f.period})`,
        `${formatMoney(f.amount, f.currency)} (${formatPercent(f.amount / f.budget)})`,
      ]),
    });
  }
  const refreshed = data.sources.map((s) => `${s.source} refreshed ${s.refreshedAt.slice(0, 16).replace('T', ' ')} UTC`);
  blocks.push({ type: 'context', text: refreshed.length ? refreshed.join(' · ') : 'no data source has been refreshed yet' });
  return { summary: `burnrate dashboard for ${data.userName}`, blocks };
}

/** GPU waste of the user's teams over the last 30 days: how much, how much at once, and the largest cause. */
function wasteCard(waste: NonNullable<HomeData['waste']>): Block[] {
  const money = (n: number) => formatMoney(n, waste.currency);
  const share = (n: number, of: number) => (of > 0 ? formatPercent(n / of) : '0%');
  return [
    { type: 'divider' },
    { type: 'header', text: 'GPU waste, last 30 days' },
    {
      type: 'table',
      columns: [
        { label: 'Team' },
        { label: 'GPU spend a month', align: 'right' },
        { label: 'Waste', align: 'right' },
        { label: 'At once', align: 'right' },
        { label: 'Largest cause' },
      ],
      rows: waste.rows.map((row) => {
        const [largest] = [...row.categories].sort((a, b) => b.monthly - a.monthly);
        return [
          row.teamName,
          money(row.gpuSpend),
          `${money(row.afterFixes)} (${share(row.afterFixes, row.gpuSpend)})`,
          `${money(row.immediate)} (${share(row.immediate, row.gpuSpend)})`,
          largest && largest.monthly > 0 ? largest.label : '—',
        ];
      }),
    },
    { type: 'context', text: 'Read-only. /burnrate waste has each cause with its evidence and first action.' },
  ];
}
