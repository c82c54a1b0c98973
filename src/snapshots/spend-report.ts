import type { Deps } from '../deps.js';
import { combinedDataThrough } from '../domain/data-through.js';
import { loadSpendTotals } from './spend-totals.js';
import { resourceFaces } from './resource-faces.js';
import type { Period } from '../domain/period.js';
import { KUBE_DIMENSIONS, type KubeDimension, type SpendDimension } from '../domain/spend.js';
import { loadKubeCost } from './kube-cost.js';
import type { KubeCostBasis, KubeCostLine } from '../domain/kube-usage.js';
import { leftOutNote } from '../domain/left-out-currencies.js';
import { unratedSplitNote } from '../checks/kubernetes/priced-node-days.js';
import { cents } from '../checks/review/allocate.js';
import type { SpendReport } from '../domain/spend-report.js';
import type { SpendBasis, SpendTotal } from '../domain/spend-totals.js';
import { staleLine } from '../../templates/stale-data-notice.js';
import { staleSources } from '../domain/staleness.js';

const isKubeDimension = (by: string): by is KubeDimension => (KUBE_DIMENSIONS as readonly string[]).includes(by);

export interface SpendReportQuery {
  period: Period;
  by: SpendDimension | KubeDimension;
  /** A team's id (what a user typed is resolved by the command); undefined for the teams the caller may see. */
  team?: string | undefined;
  /** Teams the caller may see; undefined means all (admins, the CLI). */
  visibleTeams?: readonly string[];
  /** Charge days (default) or the invoices' billing periods. */
  basis?: SpendBasis;
  /** Also say how the total was computed (rows, currencies, rates per billing period); not for Kubernetes splits. */
  explain?: boolean;
}

/**
 * "What did we spend, on what": totals for a period grouped by one dimension. One read for the spend
 * command, `burnrate spend` and the budget alert's Breakdown button.
 */
/** What a report reads: the store, and the GPU inventory where there is one (resource names). */
type NameDeps = Pick<Deps, 'store' | 'log'> & Partial<Pick<Deps, 'gpu'>>;

export async function loadSpendReport(
  deps: Pick<Deps, 'config' | 'store' | 'clock'> & NameDeps,
  query: SpendReportQuery,
): Promise<SpendReport> {
  const team = query.team;
  const teams = team ? [team] : query.visibleTeams ? [...query.visibleTeams] : undefined;
  if (isKubeDimension(query.by)) return kubeSpendReport(deps, query.period, query.by, teams);
  const by = query.by;
  // One currency per answer: a team's budget currency, else the data's own when it has one, else
  // the fx base; other currencies are converted at each billing period's rate, never added as they are.
  const budgetCurrency = team ? deps.config.teams.find((t) => t.id === team)?.budget?.currency : undefined;
  const [totals, freshness, failures] = await Promise.all([
    loadSpendTotals(
      deps,
      { period: query.period, teams, ...(query.basis ? { basis: query.basis } : {}), ...(query.explain ? { countRows: true } : {}) },
      by,
      (held, fx) => budgetCurrency ?? (held.length === 1 ? held[0]! : fx.base),
    ),
    deps.store.freshness.list(),
    deps.store.freshness.failures(),
  ]);
  const { currency, total } = totals;
  const rows = by === 'resource' ? await withResourceNames(deps, query.period, totals.rows) : totals.rows;
  const warnings = [...totals.notes];
  // A failing source leaves its numbers short: say so next to them ("AWS data 26 h old (refresh failing)").
  const stale = staleSources(deps.config, freshness, failures, deps.clock()).filter((s) => s.kind === 'spend');
  if (stale.length > 0) warnings.push(staleLine(stale));
  return {
    period: query.period,
    currency,
    by: query.by,
    ...(query.basis === 'invoice' ? { basis: 'invoice' as const } : {}),
    ...(teams ? { teams } : {}),
    rows,
    total,
    dataThrough: combinedDataThrough(freshness),
    warnings,
    ...(totals.parts
      ? { explanation: { read: totals.read, rows: totals.parts.reduce((n, p) => n + p.rows, 0), parts: totals.parts } }
      : {}),
  };
}

/** A Kubernetes cost line's key by namespace, or by workload (its name without its kind; a namespace's unclaimed GPUs under the namespace). */
export function kubeKeyOf(line: Pick<KubeCostLine, 'namespace' | 'workload'>, by: KubeDimension): string {
  return by === 'namespace' || line.namespace === line.workload ? line.namespace : line.workload.replace(/^[^/]+\//, '');
}

/**
 * The Kubernetes GPU nodes' cost by namespace or workload: each node's cost (the bill's, else its
 * list price over the hours seen) split over the workloads that held its GPUs, adding up to it to
 * the cent; the GPUs no pod requested and the node time no sample saw are lines of their own.
 */
async function kubeSpendReport(
  deps: Pick<Deps, 'config' | 'store' | 'clock'>,
  period: Period,
  by: KubeDimension,
  teams: readonly string[] | undefined,
): Promise<SpendReport> {
  const [cost, freshness] = await Promise.all([loadKubeCost(deps, period), deps.store.freshness.list()]);
  const lines = cost.lines.filter((l) => !teams || (l.team !== null && teams.includes(l.team)));
  const sums = new Map<string, number>();
  const bases = new Map<string, KubeCostBasis>();
  for (const line of lines) {
    const key = kubeKeyOf(line, by);
    sums.set(key, cents(sums.get(key) ?? 0) + line.cost);
    const was = bases.get(key);
    bases.set(key, was === undefined || was === line.basis ? line.basis : 'mixed');
  }
  const rows = [...sums]
    .map(([key, amount]) => ({ key, billed: cents(amount), effective: cents(amount), basis: bases.get(key)! }))
    .sort((a, b) => b.effective - a.effective || a.key.localeCompare(b.key));
  const total = cents(rows.reduce((sum, r) => sum + r.effective, 0));
  const leftOut = leftOutNote(cost.missing, cost.currency);
  const warnings = [
    `Kubernetes GPU nodes only: ${cost.billedNodeDays} node-day(s) at the bill's cost, ${cost.listNodeDays} at list price (not on the bill yet).`,
    ...(cost.podSplitNodeDays > 0
      ? [
          `${cost.podSplitNodeDays} node-day(s) split over pods by the bill itself (AWS split cost allocation data); the rest by burnrate's GPU samples.`,
        ]
      : []),
    ...[unratedSplitNote(cost.unrated, cost.currency), leftOut].filter((note) => note !== null),
  ];
  return {
    period,
    currency: cost.currency,
    by,
    ...(teams ? { teams: [...teams] } : {}),
    rows,
    total: { billed: total, effective: total },
    dataThrough: combinedDataThrough(freshness),
    warnings,
  };
}

/** Resource lines with each resource's name and console page (resourceFaces), read once for all of them. */
async function withResourceNames<R extends SpendTotal>(deps: NameDeps, period: Period, rows: readonly R[]): Promise<R[]> {
  const faces = await resourceFaces(
    deps,
    period,
    rows.map((r) => r.key),
  );
  return rows.map((r) => (faces.has(r.key) ? { ...r, ...faces.get(r.key)! } : r));
}
