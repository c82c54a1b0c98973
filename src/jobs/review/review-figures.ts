import { forecastPeriodEnd } from '../../checks/forecast.js';
import { idleCostByTeam, type IdleCost } from '../../checks/review/idle-cost.js';
import { costPerThousandPredictions, unitCost } from '../../checks/review/unit-costs.js';
import type { TeamConfig } from '../../config/schema.js';
import type { Deps } from '../../deps.js';
import { convert, type FxRates } from '../../domain/fx.js';
import { loadFxRates, teamCurrency } from '../../snapshots/fx-rates.js';
import { loadSpendTotals } from '../../snapshots/spend-totals.js';
import { loadMonthShowback } from '../../snapshots/month-showback.js';
import { loadUnitTotals } from '../../snapshots/team-breakdowns.js';
import { monthOf } from '../../domain/period.js';
import type { ReviewFigures, ReviewWaste } from '../../domain/review.js';
import type { WasteDiagnosis } from '../../domain/waste.js';
import { loadWasteDiagnosis } from '../../snapshots/waste-snapshot.js';
import { loadGpuSnapshot } from '../../snapshots/gpu-snapshot.js';
import { periodWindow } from '../../snapshots/gpu-windows.js';
import { loadSavingsLedger, savingsSummary } from '../../snapshots/savings-ledger.js';
import { UNMAPPED, UNTAGGED } from '../../domain/spend.js';
import { loadBudgetSnapshot } from '../../snapshots/budget-snapshot.js';
import { loadPeriodAnomalies } from '../../snapshots/anomaly-listing.js';
import { nextMonth, previousMonth } from './review-calendar.js';

/** Everything a month's review of one team says, read from the store (and GPU metrics when configured). */
export async function loadReviewFigures(
  deps: Deps,
  team: TeamConfig,
  month: string,
  idle: Map<string, IdleCost> | null,
  waste: WasteDiagnosis | null = null,
  rates?: FxRates,
): Promise<ReviewFigures> {
  const period = monthOf(`${month}-01`);
  const before = previousMonth(month);
  // Every figure in the team's budget currency, each part at its billing period's rate: other
  // currencies converted, never added as they are.
  const fx = rates ?? (await loadFxRates(deps));
  const currency = teamCurrency(deps.config, team.id);
  const to = { currency, fx };
  const [byTeamTotals, previousTotals, experiments, runs, sweeps, snapshot, ledger, anomalies] = await Promise.all([
    loadSpendTotals(deps, { period }, 'team', currency, fx),
    loadSpendTotals(deps, { period: monthOf(`${before}-01`), teams: [team.id] }, 'team', currency, fx),
    loadUnitTotals(deps, period, team.id, 'experiment', to),
    loadUnitTotals(deps, period, team.id, 'run', to),
    loadUnitTotals(deps, period, team.id, 'sweep', to),
    loadBudgetSnapshot(deps, [team], deps.clock()),
    loadSavingsLedger(deps, period, [team.id]),
    loadPeriodAnomalies(deps, team.id, period),
  ]);
  const byTeam = byTeamTotals.rows;
  const previous = previousTotals.rows;
  const spend = byTeam.find((t) => t.key === team.id)?.effective ?? 0;
  const previousSpend = previous[0]?.effective ?? 0;
  const orgTotal = byTeam.reduce((sum, t) => sum + t.effective, 0);
  const untagged = byTeam.filter((t) => t.key === UNTAGGED || t.key === UNMAPPED).reduce((sum, t) => sum + t.effective, 0);
  const budgeted = snapshot.teams[0] ?? team;
  // The diagnosis is in the fx base currency; the review speaks the team's, at the month's rate.
  const idleFound = idle?.get(team.id) ?? (idle ? { cost: 0, gpuHours: 0 } : null);
  const idleCost = idleFound && waste ? convert(idleFound.cost, waste.currency, currency, fx, month) : (idleFound?.cost ?? null);
  const teamIdle = idleFound && idleCost !== null ? { ...idleFound, cost: round(idleCost) } : null;
  const predictions = deps.config.unitCosts.predictions.find((p) => p.team === team.id)?.perMonth;
  return {
    team: team.id,
    teamName: team.name ?? team.id,
    month,
    currency,
    spend: round(spend),
    budget: budgeted.budget?.monthly ?? null,
    previousMonth: before,
    previousSpend: round(previousSpend),
    change: previousSpend > 0 ? spend / previousSpend - 1 : null,
    forecast: forecastOf(deps, snapshot.daily.get(team.id), snapshot.dataThrough, nextMonth(month)),
    idle: teamIdle
      ? {
          ...teamIdle,
          share: spend > 0 ? teamIdle.cost / spend : 0,
          basis:
            "idle: the bill's charge for each GPU instance times the share of its GPU time that was idle or stalled, as in the waste diagnosis",
        }
      : null,
    untagged: { amount: round(untagged), share: orgTotal > 0 ? untagged / orgTotal : 0 },
    units: {
      experiment: unitCost(experiments),
      run: unitCost(runs),
      sweep: unitCost(sweeps),
      perThousandPredictions: costPerThousandPredictions(spend, predictions),
    },
    showback: await teamShowback(deps, team.id, month, fx),
    dataThrough: snapshot.dataThrough,
    waste: reviewWaste(waste, team.id),
    savings: savingsSummary(ledger),
    anomalies,
  };
}

function reviewWaste(diagnosis: WasteDiagnosis | null, team: string): ReviewWaste | null {
  const row = diagnosis?.teams.find((t) => t.team === team);
  if (!diagnosis || !row) return null;
  const { period, currency, notes, unavailable } = diagnosis;
  return { period, currency, notes, ...(unavailable ? { unavailable } : {}), row };
}

/** A month's GPU figures: idle cost by team and the waste diagnosis; null each without GPU metrics. */
export interface MonthGpuFigures {
  idle: Map<string, IdleCost> | null;
  waste: WasteDiagnosis | null;
}

/**
 * The month's waste diagnosis and, read from it, every team's idle GPU cost: one read of the
 * month's GPU metrics, one figure. A diagnosis that cannot be made leaves the review without its
 * waste section and its idle figure (the log says why); unreadable metrics fail the review.
 */
export async function loadMonthGpuFigures(deps: Deps, month: string): Promise<MonthGpuFigures> {
  if (!deps.gpu) return { idle: null, waste: null };
  const period = monthOf(`${month}-01`);
  const range = periodWindow(period, deps.clock());
  if (range.end <= range.start) return { idle: new Map(), waste: null };
  const snapshot = await loadGpuSnapshot(deps, { window: range, ownership: 'tags' });
  const waste = await loadWasteDiagnosis(deps, period, snapshot).catch((error: unknown) => {
    deps.log.warn({ month, err: (error as Error).message }, 'waste diagnosis failed; the review goes out without it');
    return null;
  });
  // One idle figure: the waste diagnosis's idle and stalled causes, never a second computation.
  return { idle: waste ? idleCostByTeam(waste) : null, waste };
}

/** This month's forecast as the budget check makes it (weekday averages of the lookback window). */
function forecastOf(
  deps: Deps,
  daily: ReadonlyMap<string, number> | undefined,
  dataThrough: string | null,
  month: string,
): ReviewFigures['forecast'] {
  if (!dataThrough) return null;
  const dataEnd = new Date(new Date(dataThrough).getTime() + 86_399_999).toISOString().slice(0, 10);
  const period = monthOf(`${month}-01`);
  if (dataEnd < period.start) return null; // the data ends before the month begins
  const f = forecastPeriodEnd({ daily: daily ?? new Map(), period, dataEnd, lookbackDays: deps.config.forecast.lookbackDays });
  return { month, amount: round(f.amount), method: f.method };
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

/** The team's line of the month's showback (in the fx base currency); none when a currency of the month has no rate. */
async function teamShowback(deps: Deps, team: string, month: string, fx: FxRates) {
  const { result, missing } = await loadMonthShowback(deps, month, fx);
  return missing.length > 0 ? null : (result.lines.find((l) => l.team === team) ?? null);
}
