import type { TeamConfig } from '../config/schema.js';
import type { Deps } from '../deps.js';
import { biggestMovers, budgetPace } from '../checks/digest/digest-period.js';
import type { DigestPeriod, TeamDigest } from '../domain/digest.js';
import { combinedDataThrough } from '../domain/data-through.js';
import type { FxRates } from '../domain/fx.js';
import { addDays, monthOf, type Period } from '../domain/period.js';
import { loadFxRates } from './fx-rates.js';
import { loadSpendTotals } from './spend-totals.js';

/** What every team's digest of one run reads alike: rates, freshness and what is open, read once. */
export interface DigestContext {
  rates: FxRates;
  dataThrough: string | null;
  budgetFindings: readonly { team: string }[];
  gpuFindings: readonly { team: string | null; perDay: number }[];
  reviews: readonly { team: string; month: string }[];
}

export async function loadDigestContext(deps: Pick<Deps, 'config' | 'store'>): Promise<DigestContext> {
  const [rates, freshness, budgetFindings, gpuFindings, reviews] = await Promise.all([
    loadFxRates(deps),
    deps.store.freshness.list(),
    deps.store.findings.listOpen(),
    deps.store.gpuFindings.listOpen(),
    deps.store.reviews.listOpen(),
  ]);
  return { rates, dataThrough: combinedDataThrough(freshness), budgetFindings, gpuFindings, reviews };
}

/** Reads one team's digest: spend by service for the period and the one before, month to date, and what is open. */
export async function loadTeamDigest(
  deps: Pick<Deps, 'config' | 'store' | 'clock'>,
  team: TeamConfig,
  digest: DigestPeriod,
  context: DigestContext,
): Promise<TeamDigest> {
  const { rates, budgetFindings, gpuFindings, reviews } = context;
  const currency = team.budget?.currency ?? deps.config.fx.base;
  // The month of the period's last day: a weekly digest of a week across two months shows the later.
  const month = monthOf(addDays(digest.period.end, -1));
  const monthSoFar = { start: month.start, end: digest.period.end < month.end ? digest.period.end : month.end };
  const byService = (period: Period) => loadSpendTotals(deps, { period, teams: [team.id] }, 'service', currency, rates);
  const [now, before, mtd] = await Promise.all([byService(digest.period), byService(digest.previous), byService(monthSoFar)]);
  const total = (rows: { effective: number }[]) => rows.reduce((sum, r) => sum + r.effective, 0);
  const idle = gpuFindings.filter((f) => f.team === team.id);
  let openReviewLines = 0;
  for (const review of reviews.filter((r) => r.team === team.id))
    openReviewLines += (await deps.store.reviews.lines(review.team, review.month)).filter((l) => l.answer === null).length;
  return {
    team: team.id,
    teamName: team.name ?? team.id,
    digest,
    currency,
    spent: total(now.rows),
    previous: total(before.rows),
    pace: budgetPace(team.budget, digest.period),
    monthToDate: { period: monthSoFar, spent: total(mtd.rows), budget: team.budget?.monthly ?? null },
    movers: biggestMovers(now.rows, before.rows),
    idle: { instances: idle.length, perDay: idle.reduce((sum, f) => sum + f.perDay, 0) },
    openAlerts: budgetFindings.filter((f) => f.team === team.id).length + idle.length,
    openReviewLines,
    leftOut: [...new Set([...now.leftOut, ...before.leftOut].map((l) => l.currency))].sort(),
    dataThrough: context.dataThrough,
  };
}
